import * as Toast from '@radix-ui/react-toast';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

interface ToastItem {
  id: number;
  kind: 'success' | 'error';
  message: string;
}

interface Toaster {
  success(message: string): void;
  error(message: string): void;
}

const ToastContext = createContext<Toaster | null>(null);
let nextId = 1;

/** Toasts for outcomes of mutations; errors carry the server's message. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const push = useCallback((kind: ToastItem['kind'], message: string) => {
    setItems((list) => [...list.slice(-3), { id: nextId++, kind, message }]);
  }, []);
  const toaster = useMemo<Toaster>(
    () => ({ success: (m) => push('success', m), error: (m) => push('error', m) }),
    [push],
  );
  return (
    <ToastContext.Provider value={toaster}>
      <Toast.Provider swipeDirection="right" duration={4000}>
        {children}
        {items.map((item) => (
          <Toast.Root
            key={item.id}
            className={`toast toast-${item.kind}`}
            type={item.kind === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) setItems((list) => list.filter((t) => t.id !== item.id));
            }}
          >
            <Toast.Description className="toast-message" role={item.kind === 'error' ? 'alert' : 'status'}>
              {item.message}
            </Toast.Description>
            <Toast.Close className="toast-close" aria-label="Dismiss">
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToast outside ToastProvider');
  return toaster;
}
