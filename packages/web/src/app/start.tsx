import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { cspNonce, nonceHeadStyles } from './cspNonce';
import './global.css';
import { Providers } from './providers';
import { createAppRouter } from './router';
import { syncSessionAcrossTabs } from './tabSync';

const nonce = cspNonce();
if (nonce) nonceHeadStyles(nonce);
const router = createAppRouter();
syncSessionAcrossTabs(router);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
