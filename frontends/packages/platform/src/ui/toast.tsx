import { useEffect, useSyncExternalStore } from 'react';
import { ERROR_TOAST_MS } from '../constants';

/**
 * Error toasts, kept in a tiny store so non-React code (the query cache's
 * error hook) can raise one.
 */
export interface ToastItem {
  id: number;
  message: string;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const toast = {
  error(message: string): number {
    const id = nextId++;
    items = [...items, { id, message }];
    emit();
    return id;
  },
  dismiss(id: number): void {
    items = items.filter((item) => item.id !== id);
    emit();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): ToastItem[] => items,
};

function Toast({ item }: { item: ToastItem }) {
  useEffect(() => {
    const timer = setTimeout(() => toast.dismiss(item.id), ERROR_TOAST_MS);
    return () => clearTimeout(timer);
  }, [item.id]);
  return (
    <div role="alert" className="u-toast">
      {item.message}
    </div>
  );
}

/** Bottom-right stack of error toasts; the shell renders it once. */
export function Toaster() {
  const current = useSyncExternalStore(toast.subscribe, toast.getSnapshot, toast.getSnapshot);
  return (
    <div className="u-toasts">
      {current.map((item) => (
        <Toast key={item.id} item={item} />
      ))}
    </div>
  );
}
