import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AdminApp } from './app/app.tsx';
import '../styles/global.css';
import './app/admin.css';

// The server wrote a default title; each page renders its own.
for (const element of document.querySelectorAll('head > title')) element.remove();

const root = document.getElementById('root');
if (!root) throw new Error('admin/index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
);
