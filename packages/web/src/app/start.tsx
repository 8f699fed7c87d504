import { LIMITS } from '@hublink/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { cspNonce, nonceHeadStyles } from './cspNonce';
import './global.css';
import { Providers } from './providers';
import { createAppRouter, routeLoaded } from './router';
import { syncSessionAcrossTabs } from './tabSync';

const nonce = cspNonce();
if (nonce) nonceHeadStyles(nonce);
const router = createAppRouter();
syncSessionAcrossTabs(router);
// The route's code is on its way (the router asked for it); rendering once it is here shows the page
// at once instead of a loading state first (app/lazyPage.ts). A chunk that does not come in time
// (or at all: a reload for a new version) leaves the loading state to the page's Suspense. Not a
// top-level await: the page's chunk imports modules of this one, which must finish evaluating first.
const codeHere = Promise.race([routeLoaded(router.state.location).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LIMITS.firstRouteCodeWaitMs))]);

void codeHere.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
