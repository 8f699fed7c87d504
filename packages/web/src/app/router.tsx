import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ComingSoon } from '../components/ComingSoon';
import MainLayout from './layouts/MainLayout';
import PublicLayout from './layouts/PublicLayout';
import SecondPublicLayout from './layouts/SecondPublicLayout';
import { RouteError } from './RouteError';
import { RouteGuard } from './RouteGuard';
import { DEFAULT_PATH, HOME_PATH, NOT_FOUND_PATH } from './paths';
import { ROUTES, type LayoutKind, type PageRoute } from './routes';

function RoutePage({ route }: { route: PageRoute }) {
  const Page = route.page;
  return Page ? <Page /> : <ComingSoon title={route.title} />;
}

const LAYOUTS: Record<LayoutKind, React.ComponentType> = {
  public: PublicLayout,
  second: SecondPublicLayout,
  main: MainLayout,
};

/** Turns a route table into React Router routes: guard → layout → page; '/' and unknown paths redirect. */
export function toRouteObjects(table: PageRoute[]): RouteObject[] {
  const layouts = (Object.keys(LAYOUTS) as LayoutKind[]).map((kind) => {
    const Layout = LAYOUTS[kind];
    return {
      element: <Layout />,
      children: table.filter((r) => r.layout === kind).map((r) => ({ path: r.path, element: <RoutePage route={r} /> })),
    };
  });
  return [
    {
      element: <RouteGuard />,
      errorElement: <RouteError />,
      children: [
        { path: HOME_PATH, element: <Navigate to={DEFAULT_PATH} replace /> },
        ...layouts,
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ];
}

export const appRoutes = toRouteObjects(ROUTES);

export const createAppRouter = () => createBrowserRouter(appRoutes);
