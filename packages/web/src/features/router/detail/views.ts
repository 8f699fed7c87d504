import { ROUTER_TYPE } from '@hublink/contract';

/** The views of /router/detail, chosen by the `view` query value; none is the detail page. */
export const ROUTER_VIEWS = ['detail', 'traffic', 'status'] as const;
export type RouterView = (typeof ROUTER_VIEWS)[number];

export const viewOf = (value: string | null): RouterView => (ROUTER_VIEWS as readonly string[]).includes(value ?? '') ? (value as RouterView) : 'detail';

/** The second hardware view (traffic and analysis) charts hardware only: a software member has the other two. */
export const viewsFor = (routerType: number): readonly RouterView[] => (routerType === ROUTER_TYPE.software ? ROUTER_VIEWS.filter((v) => v !== 'traffic') : ROUTER_VIEWS);
