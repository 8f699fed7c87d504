/** The views of /router/detail, chosen by the `view` query value; none is the detail page. */
export const ROUTER_VIEWS = ['detail', 'traffic', 'status'] as const;
export type RouterView = (typeof ROUTER_VIEWS)[number];

export const viewOf = (value: string | null): RouterView => (ROUTER_VIEWS as readonly string[]).includes(value ?? '') ? (value as RouterView) : 'detail';
