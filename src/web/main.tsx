import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Toaster } from './components/ui/toast';
import { AuthProvider } from './features/auth/auth-provider';
import { takeResetTokenFromAddress } from './features/auth/reset-token';
import { CartProvider } from './features/cart/cart-provider';
import { queryClient } from './lib/query-client';
import { AppRoutes } from './routes';
import './styles.css';

// Before the router reads the address and analytics starts: a reset token must never reach them.
takeResetTokenFromAddress();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <CartProvider>
            <AppRoutes />
            <Toaster />
          </CartProvider>
        </AuthProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
