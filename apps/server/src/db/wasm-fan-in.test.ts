import { readFile } from 'node:fs/promises';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { describe, expect, inject, it } from 'vitest';
import { pgliteWasmPath } from './pgdata-template.ts';
import { boundBranchFanIn } from './wasm-fan-in.ts';

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
// Node's global; the ES libraries the server compiles against do not declare it.
declare const WebAssembly: {
  validate(bytes: Uint8Array): boolean;
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> };
};

// Just enough of the binary format to write bison's switch by hand.
const u32 = (value: number): number[] => {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return out;
};
const s32 = (value: number): number[] => {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && !(byte & 0x40)) || (rest === -1 && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
};
const section = (id: number, bytes: number[]): number[] => [id, ...u32(bytes.length), ...bytes];
const vector = (items: number[][]): number[] => [...u32(items.length), ...items.flat()];
const name = (text: string): number[] => [...u32(text.length), ...Buffer.from(text)];
const [BLOCK, IF, END, BR, BR_IF, BR_TABLE, CALL, LOCAL_GET, LOCAL_SET, I32_CONST] = [
  0x02, 0x04, 0x0b, 0x0c, 0x0d, 0x0e, 0x10, 0x20, 0x21, 0x41,
];
const I32_GT_S = 0x4a;
const I32_ADD = 0x6a;

/**
 * `run(rule)`: a chain of `rules` nested blocks with a `br_table` on `rule` in the innermost, as
 * bison's switch. Each rule's action logs its number, then most branch to the code after the
 * switch; some fall through to the next action, branch there only when `rule` is large, branch
 * to another action, or branch from inside a `br_table` of their own. `extra` goes into the
 * innermost block as it is.
 */
function bisonLikeModule(rules: number, extra: number[] = []): Uint8Array {
  const RULE = 0;
  const SUM = 1;
  const log = (value: number[]) => [...value, CALL, 0];
  const body: number[] = [BLOCK, 0x40]; // the code after the switch
  for (let i = 0; i < rules; i++) body.push(BLOCK, 0x40);
  body.push(...extra, LOCAL_GET, RULE, BR_TABLE, ...u32(rules));
  for (let i = 0; i < rules; i++) body.push(...u32(i));
  body.push(...u32(rules)); // any other rule: straight to the code after the switch
  for (let i = 0; i < rules; i++) {
    body.push(END);
    // Depth of the code after the switch from this action: the blocks still open around it.
    const exit = rules - 1 - i;
    body.push(...log([I32_CONST, ...s32(i)]));
    body.push(LOCAL_GET, SUM, I32_CONST, ...s32(i), I32_ADD, LOCAL_SET, SUM);
    if (i % 7 === 3) continue; // falls through to the next action
    if (i % 11 === 5) {
      body.push(LOCAL_GET, RULE, I32_CONST, ...s32(i), I32_GT_S, IF, 0x40);
      body.push(BR, ...u32(exit + 1), END);
      body.push(LOCAL_GET, RULE, I32_CONST, 1, I32_GT_S, BR_IF, ...u32(exit));
      continue; // otherwise falls through
    }
    if (i % 13 === 8 && i > 2) {
      body.push(BR, ...u32(1)); // runs the action after the next one
      continue;
    }
    if (i % 17 === 9) {
      body.push(BLOCK, 0x40, LOCAL_GET, RULE, BR_TABLE, 2, 0, ...u32(exit + 1), 0, END);
      body.push(...log([I32_CONST, ...s32(-2)]));
    }
    body.push(BR, ...u32(exit));
  }
  body.push(END, ...log([LOCAL_GET, SUM]), LOCAL_GET, SUM, END);
  const code = [...vector([[1, 0x7f]]), ...body]; // one i32 local: SUM
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(
      1,
      vector([
        [0x60, 1, 0x7f, 0],
        [0x60, 1, 0x7f, 1, 0x7f],
      ]),
    ),
    ...section(2, vector([[...name('env'), ...name('log'), 0x00, 0]])),
    ...section(3, vector([[1]])),
    ...section(7, vector([[...name('run'), 0x00, 1]])),
    ...section(10, vector([[...u32(code.length), ...code]])),
  ]);
}

/** What `run` logs and returns for every rule and a few it has no action for. */
function runAll(module: Uint8Array, rules: number): Array<[number, number[]]> {
  const logged: number[] = [];
  const instance = new WebAssembly.Instance(new WebAssembly.Module(module), {
    env: { log: (value: number) => logged.push(value) },
  });
  const run = instance.exports.run as (rule: number) => number;
  const results: Array<[number, number[]]> = [];
  for (let rule = -1; rule <= rules + 1; rule++) {
    logged.length = 0;
    results.push([run(rule), [...logged]]);
  }
  return results;
}

describe('boundBranchFanIn', () => {
  it("reshapes bison's switch so that it runs every rule as before", () => {
    const rules = 1000;
    const original = bisonLikeModule(rules);
    expect(WebAssembly.validate(original)).toBe(true);

    const reshaped = boundBranchFanIn(original);

    expect(reshaped).not.toBe(original);
    expect(WebAssembly.validate(reshaped)).toBe(true);
    expect(runAll(reshaped, rules)).toEqual(runAll(original, rules));
    // Nothing left with as many branches to one label: a second pass finds no chain to bound.
    expect(boundBranchFanIn(reshaped)).toBe(reshaped);
  });

  it('leaves a short chain, and a function with instructions it does not decode, as they are', () => {
    const nops = new Array(20_000).fill(0x01); // a body as large as a long chain's
    const short = bisonLikeModule(40, nops);
    expect(boundBranchFanIn(short)).toBe(short);

    // v128.const: a SIMD instruction, whose immediates this does not decode.
    const v128 = [0xfd, 0x0c, ...new Array(16).fill(0), 0x1a];
    const withSimd = bisonLikeModule(1000, v128);
    expect(WebAssembly.validate(withSimd)).toBe(true);
    expect(boundBranchFanIn(withSimd)).toBe(withSimd);
  });
});

// Statements across the grammar (DDL, DML, queries, utility commands, syntax errors), each
// answered with rows or an error; run in order, so later ones see what earlier ones made.
const SQL_CORPUS = [
  `create type mood as enum ('calm', 'busy')`,
  `create domain short_text as text check (length(value) <= 20)`,
  `create sequence ticket_seq start 100 increment 5`,
  `create table place (id int generated always as identity primary key, name short_text not null
     unique, mood mood default 'calm', tags text[] default '{}', extra jsonb,
     opened date check (opened > '2000-01-01'))`,
  `create table visit (id bigserial primary key, place_id int references place on delete cascade,
     at timestamptz not null default '2026-01-01T10:00:00Z', minutes numeric(6,2),
     exclude using btree (id with =))`,
  `create index visit_place on visit (place_id, at desc) include (minutes) where minutes > 0`,
  `create view busy_place as select p.name, count(*) as visits from place p join visit v on
     v.place_id = p.id group by p.name having count(*) > 1`,
  `create function ticket(prefix text) returns text language plpgsql as $$
     begin return prefix || '-' || nextval('ticket_seq'); end $$`,
  `insert into place (name, mood, tags, extra, opened) values ('North', 'busy', '{a,b}',
     '{"desk": [1, 2]}', '2020-05-01'), ('South', default, array['c'], null, null) returning *`,
  `insert into visit (place_id, minutes) select id, id * 1.5 from place cross join
     generate_series(1, 3) returning id, place_id, minutes`,
  `insert into place (name) values ('North') on conflict (name) do update set mood = 'calm'
     returning name, mood`,
  `update visit set minutes = minutes + 1 from place where place.id = visit.place_id and
     place.name = 'South' returning visit.id, minutes`,
  `delete from visit using place where place.id = visit.place_id and visit.id % 2 = 0
     returning visit.id`,
  `merge into place p using (values ('East', 'busy'::mood)) as s(name, mood) on p.name = s.name
     when matched then update set mood = s.mood when not matched then insert (name, mood)
     values (s.name, s.mood)`,
  `select ticket('A'), ticket('B')`,
  `select * from busy_place order by name`,
  `with recursive n(i) as (select 1 union all select i + 1 from n where i < 5)
     select string_agg(i::text, ',' order by i desc) from n`,
  `select name, row_number() over w, lag(name) over w, sum(id) over (order by id rows between
     1 preceding and current row) from place window w as (partition by mood order by id)
     order by id`,
  `select mood, count(*) filter (where tags @> '{a}') from place group by rollup (mood)
     order by mood nulls first`,
  `select p.name, last.at from place p left join lateral (select at from visit v where
     v.place_id = p.id order by at desc limit 1) last on true order by p.name`,
  `select extra -> 'desk' ->> 1, extra #> '{desk,0}', jsonb_path_query_array(extra, '$.desk[*]')
     from place where extra is not null`,
  `select case when id > 1 then 'many' else 'one' end, coalesce(opened::text, 'never'),
     nullif(id, 1), greatest(id, 2), id between 1 and 2, name ilike 'n%', name similar to 'S%'
     from place order by id`,
  `select array[1, 2, 3][2:3], (array_agg(id order by id))[1], unnest(array['x', 'y']) as u
     from place group by () order by u`,
  `select id from place where id in (select place_id from visit) intersect select 1 except
     select 2 union all values (42) order by 1 offset 0 rows fetch first 5 rows only`,
  `select interval '1 day 2 hours' * 3, date '2026-02-28' + 1, extract(dow from date
     '2026-11-26'), to_char(1234.5, '9G999D9'), 'a''b' || e'\\x41', x'0f'::int, 1e3::int`,
  `select exists (select 1 from visit), not exists (select 1 from place where false),
     1 = any (array[1, 2]), 3 > all (select id from place)`,
  `explain (costs off) select * from visit where place_id = 1 order by at desc`,
  `begin`,
  `savepoint s1`,
  `insert into place (name) values ('Temp')`,
  `rollback to savepoint s1`,
  `commit`,
  `select count(*) from place`,
  `comment on table place is 'Where people wait'`,
  `select obj_description('place'::regclass)`,
  `alter table place add column note text collate "C", alter column mood set default 'busy'`,
  `set search_path = public, pg_catalog`,
  `show search_path`,
  `prepare by_name (text) as select id from place where name = $1`,
  `execute by_name('South')`,
  `deallocate by_name`,
  `do $$ declare r record; begin for r in select id from place loop perform r.id; end loop;
     end $$`,
  `select pg_get_viewdef('busy_place'::regclass, true)`,
  `select * from place where`,
  `select 1 +`,
  `selec 1`,
  `insert into place (nme) values ('x')`,
  `create table ( )`,
  `select 'unterminated`,
  `select * from place order by name collate "C" limit all`,
  `truncate visit restart identity cascade`,
  `drop view busy_place`,
  `drop table visit, place cascade`,
];

/** Each statement's rows, or its error's message and position. */
async function answers(client: PGlite): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const statement of SQL_CORPUS) {
    try {
      out.push((await client.exec(statement)).map((result) => result.rows));
    } catch (error) {
      const { message, position } = error as { message: string; position?: string };
      out.push({ message, position });
    }
  }
  return out;
}

describe('PGlite with its parser reshaped', () => {
  it('answers statements across the grammar as the original does', async () => {
    const wasm = await readFile(pgliteWasmPath);
    const reshaped = boundBranchFanIn(wasm);
    // PGlite's parser has the shape; if a new PGlite has not, this check is no longer needed.
    expect(reshaped).not.toBe(wasm);

    const template = await readFile(inject('pgliteTemplate'));
    const open = async (module?: WasmModule) =>
      PGlite.create({ loadDataDir: new Blob([template]), pgliteWasmModule: module });
    const original = await open();
    const withReshaped = await open(await WebAssembly.compile(reshaped));
    try {
      const expected = await answers(original);
      expect(expected.filter((answer) => !Array.isArray(answer))).toHaveLength(7); // the errors
      expect(await answers(withReshaped)).toEqual(expected);
    } finally {
      await Promise.all([original.close(), withReshaped.close()]);
    }
  });
});
