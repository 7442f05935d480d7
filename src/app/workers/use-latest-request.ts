import { useEffect, useRef, useState } from 'react';
import { errorText } from './trainer-client';

export interface LatestRequest<T> {
  value?: T;
  /** The newest request's one-sentence failure, cleared by the next success. */
  problem?: string;
  pending: boolean;
}

/**
 * Runs `request` whenever `key` changes (not at all while it is undefined). Only the newest
 * request's answer is kept, so a slow older one never overwrites it. `onValue` sees each kept answer.
 */
export function useLatestRequest<T>(key: string | undefined, request: () => Promise<T>, onValue?: (value: T) => void): LatestRequest<T> {
  const [state, setState] = useState<LatestRequest<T>>({ pending: false });
  const latest = useRef({ request, onValue });
  const serial = useRef(0);
  useEffect(() => {
    latest.current = { request, onValue };
  });
  useEffect(() => {
    if (key === undefined) return;
    const mine = ++serial.current;
    setState((previous) => ({ ...previous, pending: true }));
    latest.current.request()
      .then((value) => {
        if (mine !== serial.current) return;
        latest.current.onValue?.(value);
        setState({ value, pending: false });
      })
      .catch((error: unknown) => {
        if (mine === serial.current) setState((previous) => ({ ...previous, problem: errorText(error), pending: false }));
      });
  }, [key]);
  return state;
}
