import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initI18n } from './i18n';
import { setPlatform, type Platform } from './platform';
import { createWebPlatform } from './platform/web';
import { applyUploadedIcons } from './pages/login/logos';

// The desktop preload installs its own platform before this script runs.
declare global {
  interface Window {
    atendePlatform?: Platform;
  }
}

setPlatform(window.atendePlatform ?? createWebPlatform());
// The favicon and touch icons the super user uploaded (Logo tab), when there are any.
void applyUploadedIcons();
void initI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
