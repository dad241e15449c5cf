import {
  type AnchorHTMLAttributes,
  type CSSProperties,
  createContext,
  type ReactNode,
  use,
} from 'react';

/**
 * What the public pages' components use of react-router, for their light start (the build puts
 * this module in its place, `vite.public.config.ts`): without the data router of the whole app.
 * A light page is one document; every link, and every change of the address, is a page load,
 * which the server answers with the light start or the app (`apps/server/src/http/spa.ts`).
 */
interface Where {
  pathname: string;
  search: string;
  hash: string;
}

const LocationContext = createContext<Where>({ pathname: '/', search: '', hash: '' });
const OutletContext = createContext<ReactNode>(null);

/** The page's address, and what `<Outlet />` shows (the page inside the layout). */
export function LightRouter({
  location,
  outlet,
  children,
}: {
  location: Where;
  outlet: ReactNode;
  children: ReactNode;
}) {
  return (
    <LocationContext value={location}>
      <OutletContext value={outlet}>{children}</OutletContext>
    </LocationContext>
  );
}

export function Outlet() {
  return use(OutletContext);
}

export function useLocation(): Where {
  return use(LocationContext);
}

type To = string;

function go(to: To | number, replace = false) {
  if (typeof to === 'number') window.history.go(to);
  else if (replace) window.location.replace(to);
  else window.location.assign(to);
}

export function useNavigate() {
  return async (to: To | number, options?: { replace?: boolean }) => go(to, options?.replace);
}

type SearchInit = ConstructorParameters<typeof URLSearchParams>[0];

export function useSearchParams(): [URLSearchParams, (next: SearchInit) => void] {
  const { pathname, search } = useLocation();
  const set = (next: SearchInit) => {
    const query = new URLSearchParams(next).toString();
    go(query ? `${pathname}?${query}` : pathname);
  };
  return [new URLSearchParams(search), set];
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  ref?: React.Ref<HTMLAnchorElement>;
};

export function Link({ to, replace: _replace, ...rest }: LinkProps) {
  return <a {...rest} href={to} />;
}

interface ActiveState {
  isActive: boolean;
  isPending: boolean;
  isTransitioning: boolean;
}

type NavLinkProps = Omit<LinkProps, 'className' | 'style' | 'children'> & {
  end?: boolean;
  className?: string | ((state: ActiveState) => string | undefined);
  style?: CSSProperties | ((state: ActiveState) => CSSProperties | undefined);
  children?: ReactNode | ((state: ActiveState) => ReactNode);
};

/** As react-router's: `active` and `aria-current="page"` on the link of the current page. */
export function NavLink({ to, end, className, style, children, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const isActive =
    pathname === to ||
    (!end && to !== '/' && pathname.startsWith(to.endsWith('/') ? to : `${to}/`));
  const state = { isActive, isPending: false, isTransitioning: false };
  return (
    <Link
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={
        typeof className === 'function'
          ? className(state)
          : [className, isActive ? 'active' : null].filter(Boolean).join(' ') || undefined
      }
      style={typeof style === 'function' ? style(state) : style}
      {...rest}
    >
      {typeof children === 'function' ? children(state) : children}
    </Link>
  );
}
