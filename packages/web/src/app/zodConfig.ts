import { z } from 'zod';

// zod compiles object parsers with new Function() when it may, and finds out by trying once. The
// console's Content Security Policy allows no eval, and the browser reports even the try as a
// violation, so the console's schemas are interpreted (the server keeps the compiled ones).
z.config({ jitless: true });
