import { createContext, useContext } from 'react';

export interface Crumb {
  title: string;
  path?: string;
}

/** What the router layer tells a page about the route it is on: its title and where it sits in the menu. */
export interface PageRouteInfo {
  title: string;
  breadcrumb: Crumb[];
}

/** Provided by the router layer (app/router.tsx) around every page; components never import the route table. */
export const PageRouteContext = createContext<PageRouteInfo | null>(null);

/** The current page's route, or null outside a route of the table. */
export const usePageRoute = () => useContext(PageRouteContext);
