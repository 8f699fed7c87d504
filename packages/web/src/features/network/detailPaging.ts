import { LIMITS } from '@hublink/contract';

/**
 * The query of the network detail's info and status for one page of members and links. The route
 * starts the first page's info call before the page's code has loaded (app/routes.tsx), and that
 * answer is used only when its address is the page's own, so both build it here.
 */
export const detailPaging = (networkNumber: string, memberPage = 1, linkPage = 1) => ({
  network_number: networkNumber,
  member_page: memberPage,
  link_page: linkPage,
  page_size: LIMITS.pageSize,
});
