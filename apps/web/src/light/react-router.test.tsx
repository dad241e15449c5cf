import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as real from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as light from './react-router.tsx';

const at = (path: string) => {
  const url = new URL(path, 'http://localhost');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

/**
 * The same element in the app's router and in the light start's, as markup (react-router's
 * `data-discover` serves its framework mode's route discovery, which the app does not use).
 */
type Links = Pick<typeof light, 'Link' | 'NavLink'> | Pick<typeof real, 'Link' | 'NavLink'>;

function both(path: string, element: (router: Links) => ReactNode) {
  const app = renderToStaticMarkup(
    <real.MemoryRouter initialEntries={[path]}>{element(real)}</real.MemoryRouter>,
  ).replaceAll(' data-discover="true"', '');
  const page = renderToStaticMarkup(
    <light.LightRouter location={at(path)} outlet={null}>
      {element({ Link: light.Link, NavLink: light.NavLink })}
    </light.LightRouter>,
  );
  return { app, page };
}

describe('the light start’s stand-in for react-router', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['/pricing', '/pricing', true],
    ['/pricing', '/', true],
    ['/', '/', true],
    ['/services/more', '/services', false],
    ['/services/more', '/services', true],
  ])(
    'marks the current page’s NavLink as react-router does (at %s, to %s, end %s)',
    (path, to, end) => {
      const { app, page } = both(path, (router) => (
        <router.NavLink to={to} end={end} className="link">
          Page
        </router.NavLink>
      ));
      expect(page).toBe(app);
    },
  );

  it('renders a Link as react-router does, and a NavLink’s className function', () => {
    const { app, page } = both('/join', (router) => (
      <>
        <router.Link to="/pricing" className="cta" aria-label="Prices">
          Prices
        </router.Link>
        <router.NavLink to="/join" className={({ isActive }) => (isActive ? 'on' : 'off')}>
          Join
        </router.NavLink>
      </>
    ));
    expect(page).toBe(app);
  });

  it('gives the page’s address and search, and the outlet its page', () => {
    function Probe() {
      const { pathname } = light.useLocation();
      const [search] = light.useSearchParams();
      return (
        <p>
          {pathname} {search.get('code')} <light.Outlet />
        </p>
      );
    }
    const markup = renderToStaticMarkup(
      <light.LightRouter location={at('/join?code=HARBOUR')} outlet={<b>page</b>}>
        <Probe />
      </light.LightRouter>,
    );
    expect(markup).toBe('<p>/join HARBOUR <b>page</b></p>');
  });

  it('loads the page anew for every change of address (the server sends the app or a light page)', async () => {
    const location = { assign: vi.fn(), replace: vi.fn() };
    vi.stubGlobal('location', location);
    let navigate: ReturnType<typeof light.useNavigate> = async () => {};
    let setSearch: ReturnType<typeof light.useSearchParams>[1] = () => {};
    function Probe() {
      navigate = light.useNavigate();
      setSearch = light.useSearchParams()[1];
      return null;
    }
    renderToStaticMarkup(
      <light.LightRouter location={at('/join')} outlet={null}>
        <Probe />
      </light.LightRouter>,
    );
    await navigate('/admin');
    await navigate('/admin/queues', { replace: true });
    setSearch({ code: 'HARBOUR 1' });
    setSearch({});
    expect(location.assign.mock.calls).toEqual([['/admin'], ['/join?code=HARBOUR+1'], ['/join']]);
    expect(location.replace.mock.calls).toEqual([['/admin/queues']]);
  });
});
