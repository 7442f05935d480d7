import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// COOP/COEP make the page cross-origin isolated (DESIGN.md §7): SharedArrayBuffer and wasm threads need it.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const port = Number(process.env.PORT ?? 5173);

export default defineConfig({
  plugins: [react()],
  server: { port, strictPort: true, host: 'localhost', headers: isolationHeaders },
  preview: { port, strictPort: true, host: 'localhost', headers: isolationHeaders },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@mujoco/mujoco'] },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 4096 },
});
