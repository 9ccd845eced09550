import { lazy } from 'react';

// Recharts is most of the page's script: the key list renders without it, and the charts (the
// tenant's, a key's own view, the row sparklines) arrive in a chunk of their own right after.
export const TenantUsage = lazy(() => import('./TenantUsage.tsx').then((module) => ({ default: module.TenantUsage })));
export const KeyDrawer = lazy(() => import('./KeyDrawer.tsx').then((module) => ({ default: module.KeyDrawer })));
export const Sparkline = lazy(() => import('@mantine/charts').then((module) => ({ default: module.Sparkline })));
