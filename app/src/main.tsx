import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { preloadRest, preloadScreens } from './screens.ts';
import './styles.css';

// The first screen's chunk before the first render (no Suspense fallback held 300 ms), the others after it.
await preloadScreens(location.pathname);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void preloadRest();
