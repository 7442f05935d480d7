import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installCameraTestHook } from './inspect/camera-test-hook';
import './styles.css';

if (import.meta.env.MODE === 'e2e') installCameraTestHook();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
