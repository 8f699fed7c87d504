/** Offset of a 1-based page. */
export const offsetOf = (page: number, limit: number) => (page - 1) * limit;
