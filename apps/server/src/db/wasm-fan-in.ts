/**
 * Reshapes a WebAssembly module so that no label is the target of hundreds of branches, which
 * the optimising compiler of Node 24's V8 (Turboshaft; Node 20's did not) handles in memory
 * that grows with the square of their number. PGlite's SQL parser (bison's `yyparse`) is such a
 * function: one `br_table` over ~2,000 grammar rules, each rule's action ending in a branch to
 * the code after the switch. Optimising that one function took ~600 MB for most of a second,
 * more than the whole database uses idle (docs/PERFORMANCE.md, "The memory peak: PGlite's SQL
 * parser reshaped").
 *
 * The shape it looks for is bison's switch as LLVM emits it: a chain of nested blocks, each the
 * first instruction of the one outside it, the dispatch in the innermost. Branching to the
 * label of chain block i+1 runs the code after it in block i (rule i's action: its "tail"). When
 * the tails branch to one label outside the chain, that label's merge gets one predecessor per
 * rule. This inserts a block M around every GROUP-th chain block and what follows it; the tails
 * inside M branch to M instead, and after M one branch goes on to the next M out (or the
 * original label). Each merge then has at most about GROUP + 1 predecessors. Nothing else
 * changes: the tails run in the same order, with the same values, and a tail that can fall
 * through to the next is never followed by the inserted branch.
 *
 * A function with any instruction this does not decode (exceptions, GC, SIMD, atomics) is left
 * as it is; so is a module without the shape.
 */

const GROUP = 32;
// A chain this long or longer is reshaped; bison's is ~2,000.
const MIN_CHAIN = 4 * GROUP;
// Only bodies this large are decoded, to keep a start's reshaping short: bison's is 105 kB, and
// the module's ~13,700 other functions are mostly far smaller.
const MIN_BODY_BYTES = 16 * 1024;

type Label = Structured | 'function';
type Structured = {
  kind: 'block' | 'loop' | 'if';
  blockType: Uint8Array;
  body: Instr[];
  else?: Instr[];
};
// A run of other instructions, as bytes of the original body; `last` is the run's last opcode.
type Raw = { kind: 'raw'; start: number; end: number; last: number };
type Branch =
  | { kind: 'br' | 'br_if'; target: Label }
  | { kind: 'br_table'; targets: Label[]; fallback: Label };
type Instr = Structured | Raw | Branch;

const isStructured = (instr: Instr): instr is Structured =>
  instr.kind === 'block' || instr.kind === 'loop' || instr.kind === 'if';

const VOID_BLOCK = 0x40;
const OP = {
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  brTable: 0x0e,
  return: 0x0f,
  returnCall: 0x12,
  returnCallIndirect: 0x13,
} as const;

class Unsupported extends Error {}

class Reader {
  readonly bytes: Uint8Array;
  at: number;
  constructor(bytes: Uint8Array, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }
  byte(): number {
    if (this.at >= this.bytes.length) throw new Unsupported('truncated');
    return this.bytes[this.at++] as number;
  }
  u32(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return result;
    }
  }
  skipLeb(): void {
    while (this.byte() & 0x80) {}
  }
}

function u32Bytes(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return out;
}

// Instructions without immediates, besides the numeric ones (0x45-0xc4): unreachable, nop,
// return, drop, select, ref.is_null.
const NO_IMMEDIATES = new Set([0x00, 0x01, 0x0f, 0x1a, 0x1b, 0xd1]);
// One LEB128 immediate: call, return_call, local/global/table get and set, memory.size and grow,
// i32/i64.const, ref.func.
const ONE_IMMEDIATE = new Set([
  0x10, 0x12, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x3f, 0x40, 0x41, 0x42, 0xd2,
]);
// Bulk memory and saturating truncation (0xfc prefix): LEB128 immediates after the sub-opcode.
const PREFIXED_IMMEDIATES = [0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1];

/** Skips one non-control instruction's immediates; throws Unsupported for what it does not know. */
function skipImmediates(op: number, r: Reader): void {
  if (NO_IMMEDIATES.has(op) || (op >= 0x45 && op <= 0xc4)) return;
  if (ONE_IMMEDIATE.has(op)) {
    r.skipLeb();
  } else if (op === 0x11 || op === 0x13) {
    // call_indirect, return_call_indirect: type and table
    r.skipLeb();
    r.skipLeb();
  } else if (op >= 0x28 && op <= 0x3e) {
    // loads and stores: alignment (bit 6: a memory index follows), offset
    if (r.u32() & 0x40) r.skipLeb();
    r.skipLeb();
  } else if (op === 0x43 || op === 0x44) {
    r.at += op === 0x43 ? 4 : 8; // f32.const, f64.const
  } else if (op === 0x1c) {
    // select with types
    const count = r.u32();
    for (let i = 0; i < count; i++) if (!isNumericValType(r.byte())) throw new Unsupported();
  } else if (op === 0xfc) {
    const count = PREFIXED_IMMEDIATES[r.u32()];
    if (count === undefined) throw new Unsupported('0xfc');
    for (let i = 0; i < count; i++) r.skipLeb();
  } else {
    throw new Unsupported(`opcode 0x${op.toString(16)}`);
  }
}

function isNumericValType(byte: number): boolean {
  return byte >= 0x7b && byte <= 0x7f; // i32 i64 f32 f64 v128
}

function readBlockType(r: Reader): Uint8Array {
  const start = r.at;
  const first = r.bytes[start] as number;
  if (first === VOID_BLOCK || isNumericValType(first) || first === 0x70 || first === 0x6f) {
    r.at++;
  } else {
    // A type index (s33, non-negative); reference types with a heap type are not decoded.
    if (first & 0x40 && !(first & 0x80)) throw new Unsupported('block type');
    r.skipLeb();
  }
  return r.bytes.subarray(start, r.at);
}

function parseBody(expr: Uint8Array): Instr[] {
  const r = new Reader(expr);
  const top: Instr[] = [];
  const labels: Label[] = ['function'];
  // Where instructions go: the innermost open body.
  const bodies: Instr[][] = [top];
  const target = (depth: number): Label => {
    const label = labels[labels.length - 1 - depth];
    if (label === undefined) throw new Unsupported('branch depth');
    return label;
  };
  while (r.at < expr.length) {
    const start = r.at;
    const op = r.byte();
    const into = bodies[bodies.length - 1] as Instr[];
    if (op === OP.block || op === OP.loop || op === OP.if) {
      const kind = op === OP.block ? 'block' : op === OP.loop ? 'loop' : 'if';
      const node: Structured = { kind, blockType: readBlockType(r), body: [] };
      into.push(node);
      labels.push(node);
      bodies.push(node.body);
    } else if (op === OP.else) {
      const node = labels[labels.length - 1];
      if (node === 'function' || node?.kind !== 'if' || node.else) throw new Unsupported('else');
      node.else = [];
      bodies[bodies.length - 1] = node.else;
    } else if (op === OP.end) {
      if (labels.length === 1) {
        if (r.at !== expr.length) throw new Unsupported('code after the end');
        return top;
      }
      labels.pop();
      bodies.pop();
    } else if (op === OP.br || op === OP.brIf) {
      into.push({ kind: op === OP.br ? 'br' : 'br_if', target: target(r.u32()) });
    } else if (op === OP.brTable) {
      const count = r.u32();
      const targets: Label[] = [];
      for (let i = 0; i < count; i++) targets.push(target(r.u32()));
      into.push({ kind: 'br_table', targets, fallback: target(r.u32()) });
    } else {
      skipImmediates(op, r);
      const previous = into[into.length - 1];
      if (previous?.kind === 'raw' && previous.end === start) {
        previous.end = r.at;
        previous.last = op;
      } else into.push({ kind: 'raw', start, end: r.at, last: op });
    }
  }
  throw new Unsupported('no final end');
}

function serializeBody(expr: Uint8Array, top: Instr[]): Uint8Array {
  const out = new Writer(expr.length + 1024);
  const depthOf = new Map<Label, number>([['function', 0]]);
  let depth = 0;
  const relative = (label: Label): number => {
    const at = depthOf.get(label);
    if (at === undefined) throw new Error('branch to a label that does not enclose it');
    return depth - at;
  };
  const emit = (instrs: Instr[]): void => {
    for (const instr of instrs) {
      if (isStructured(instr)) {
        out.byte(OP[instr.kind]);
        out.bytes(instr.blockType);
        depth++;
        depthOf.set(instr, depth);
        emit(instr.body);
        if (instr.else) {
          out.byte(OP.else);
          emit(instr.else);
        }
        depthOf.delete(instr);
        depth--;
        out.byte(OP.end);
      } else if (instr.kind === 'raw') {
        out.bytes(expr.subarray(instr.start, instr.end));
      } else if (instr.kind === 'br' || instr.kind === 'br_if') {
        out.byte(instr.kind === 'br' ? OP.br : OP.brIf);
        out.u32(relative(instr.target));
      } else if (instr.kind === 'br_table') {
        out.byte(OP.brTable);
        out.u32(instr.targets.length);
        for (const label of instr.targets) out.u32(relative(label));
        out.u32(relative(instr.fallback));
      }
    }
  };
  emit(top);
  out.byte(OP.end);
  return out.done();
}

class Writer {
  #buffer: Uint8Array;
  #length = 0;
  constructor(capacity: number) {
    this.#buffer = new Uint8Array(capacity);
  }
  #reserve(more: number): void {
    if (this.#length + more <= this.#buffer.length) return;
    const grown = new Uint8Array(Math.max(this.#buffer.length * 2, this.#length + more));
    grown.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = grown;
  }
  byte(value: number): void {
    this.#reserve(1);
    this.#buffer[this.#length++] = value;
  }
  bytes(values: Uint8Array): void {
    this.#reserve(values.length);
    this.#buffer.set(values, this.#length);
    this.#length += values.length;
  }
  u32(value: number): void {
    this.bytes(Uint8Array.from(u32Bytes(value)));
  }
  done(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }
}

const isVoidBlock = (instr: Instr | undefined): instr is Structured =>
  instr?.kind === 'block' && instr.blockType.length === 1 && instr.blockType[0] === VOID_BLOCK;

/** Whether running `instrs` to its end never falls through to what follows. */
function endsUnconditionally(instrs: Instr[]): boolean {
  const last = instrs[instrs.length - 1];
  if (!last) return false;
  if (last.kind === 'br' || last.kind === 'br_table') return true;
  return (
    last.kind === 'raw' &&
    (last.last === OP.unreachable ||
      last.last === OP.return ||
      last.last === OP.returnCall ||
      last.last === OP.returnCallIndirect)
  );
}

/** Every branch instruction in `instrs`, nested ones included. */
function* branches(instrs: Instr[]): Generator<Branch> {
  for (const instr of instrs) {
    if (isStructured(instr)) {
      yield* branches(instr.body);
      if (instr.else) yield* branches(instr.else);
    } else if (instr.kind !== 'raw') yield instr;
  }
}

function retarget(instrs: Instr[], from: Label, to: Label): void {
  for (const branch of branches(instrs)) {
    if (branch.kind === 'br_table') {
      branch.targets = branch.targets.map((label) => (label === from ? to : label));
      if (branch.fallback === from) branch.fallback = to;
    } else if (branch.target === from) branch.target = to;
  }
}

/** Reshapes every long chain in the body; returns whether it changed anything. */
function boundChains(top: Instr[]): boolean {
  let changed = false;
  // Labels enclosing the instructions being walked, innermost last.
  const enclosing: Label[] = ['function'];
  const inChain = new Set<Instr>();
  const walk = (instrs: Instr[]): void => {
    for (const instr of instrs) {
      if (!isStructured(instr)) continue;
      const chain: Structured[] = [];
      for (let link: Instr | undefined = instr; isVoidBlock(link); link = link.body[0]) {
        if (inChain.has(link)) break;
        chain.push(link);
      }
      for (const link of chain) inChain.add(link);
      if (chain.length >= MIN_CHAIN && boundChain(chain, enclosing)) changed = true;
      // Walking the chain's outermost block reaches the others, which are not chains again.
      enclosing.push(instr);
      walk(instr.body);
      if (instr.else) walk(instr.else);
      enclosing.pop();
    }
  };
  walk(top);
  return changed;
}

function boundChain(chain: Structured[], enclosing: Label[]): boolean {
  const tails = chain.slice(0, -1).map((block) => block.body.slice(1));
  // The label outside the chain that the tails branch to most.
  const outside = new Set<Label>([...enclosing, chain[0] as Structured]);
  const counts = new Map<Label, number>();
  for (const tail of tails) {
    for (const branch of branches(tail)) {
      const labels =
        branch.kind === 'br_table' ? [...branch.targets, branch.fallback] : [branch.target];
      for (const label of labels) {
        if (outside.has(label)) counts.set(label, (counts.get(label) ?? 0) + 1);
      }
    }
  }
  const [exit, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!exit || exit === 'function' || (count ?? 0) < 2 * GROUP) return false;
  if (exit.kind === 'loop' || exit.blockType.length !== 1 || exit.blockType[0] !== VOID_BLOCK) {
    return false;
  }
  // Group boundaries, outermost first: chain block `at` gets M around its first instruction
  // and its tail, so M holds the tails from `at` inwards. A boundary moves inwards until its
  // tail cannot fall through (the branch after M would otherwise skip the next tail).
  const boundaries: number[] = [];
  for (let at = GROUP; at < tails.length; at += GROUP) {
    let b = at;
    while (b < tails.length && !endsUnconditionally(tails[b] as Instr[])) b++;
    if (b < tails.length && b - (boundaries[boundaries.length - 1] ?? 0) >= GROUP / 2) {
      boundaries.push(b);
    }
  }
  if (boundaries.length === 0) return false;
  let next: Label = exit;
  const groupOf: Label[] = [];
  for (const at of boundaries) {
    const block = chain[at] as Structured;
    const merge: Structured = {
      kind: 'block',
      blockType: Uint8Array.of(VOID_BLOCK),
      body: block.body,
    };
    block.body = [merge, { kind: 'br', target: next }];
    groupOf[at] = merge;
    next = merge;
  }
  let group: Label = exit;
  tails.forEach((tail, i) => {
    group = groupOf[i] ?? group;
    if (group !== exit) retarget(tail, exit, group);
  });
  return true;
}

/** Returns the module with long chains reshaped (a new array), or the same array. */
export function boundBranchFanIn(bytes: Uint8Array): Uint8Array {
  // A plain view: a Node Buffer's subarray would make a Buffer each time.
  const module = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const r = new Reader(module, 8);
  while (r.at < module.length) {
    const sectionStart = r.at;
    const id = r.byte();
    const size = r.u32();
    const payloadStart = r.at;
    if (id !== 10) {
      r.at = payloadStart + size;
      continue;
    }
    const count = r.u32();
    const parts: Uint8Array[] = [];
    let copiedTo = r.at;
    let changed = false;
    for (let i = 0; i < count; i++) {
      const entryStart = r.at;
      const bodySize = r.u32();
      const bodyStart = r.at;
      r.at = bodyStart + bodySize;
      if (bodySize < MIN_BODY_BYTES) continue;
      const reshaped = reshapeFunction(module.subarray(bodyStart, r.at));
      if (!reshaped) continue;
      parts.push(module.subarray(copiedTo, entryStart), Uint8Array.from(u32Bytes(reshaped.length)));
      parts.push(reshaped);
      copiedTo = r.at;
      changed = true;
    }
    if (!changed) return bytes;
    parts.push(module.subarray(copiedTo, payloadStart + size));
    const countBytes = Uint8Array.from(u32Bytes(count));
    const payloadSize = parts.reduce((sum, part) => sum + part.length, countBytes.length);
    return concat([
      module.subarray(0, sectionStart),
      Uint8Array.of(id, ...u32Bytes(payloadSize)),
      countBytes,
      ...parts,
      module.subarray(payloadStart + size),
    ]);
  }
  return bytes;
}

function reshapeFunction(body: Uint8Array): Uint8Array | undefined {
  const r = new Reader(body);
  const localGroups = r.u32();
  for (let i = 0; i < localGroups; i++) {
    r.u32();
    if (!isNumericValType(r.byte())) return undefined;
  }
  const localsEnd = r.at;
  try {
    const top = parseBody(body.subarray(localsEnd));
    if (!boundChains(top)) return undefined;
    return concat([body.subarray(0, localsEnd), serializeBody(body.subarray(localsEnd), top)]);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
