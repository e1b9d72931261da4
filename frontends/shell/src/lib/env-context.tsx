import { createContext, useContext, type ReactNode } from 'react';
import type { Env } from '@uplift/platform';

const EnvContext = createContext<Env | null>(null);

export function EnvProvider({ env, children }: { env: Env; children: ReactNode }) {
  return <EnvContext.Provider value={env}>{children}</EnvContext.Provider>;
}

/** The validated runtime configuration. */
export function useEnv(): Env {
  const env = useContext(EnvContext);
  if (!env) throw new Error('useEnv must be used inside EnvProvider');
  return env;
}
