import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { ToastOptions } from 'react-toastify';
import { CONSTANTS, TOASTS, type Toasts } from 'shared/arranque';

const options: ToastOptions = { autoClose: CONSTANTS.toastMs };

// react-toastify loads with the first toast, not with the first paint; it queues toasts shown
// before its container has mounted.
let loading: Promise<typeof import('react-toastify')> | null = null;
let wanted = false;
const listeners = new Set<() => void>();
function load() {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  loading ??= import('react-toastify');
  return loading;
}

function Body({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <strong style={{ display: 'block' }}>{title}</strong>
      <span style={{ fontSize: 14 }}>{text}</span>
    </div>
  );
}

type Kind = 'success' | 'error' | 'warning' | 'info';
function show(kind: Kind, content: React.ReactNode) {
  void load().then(({ toast }) => toast[kind](content, options));
}

/** The specification's toasts (§8), 3000 ms each. */
export const toasts: Toasts = {
  success: (text) => show('success', <Body title={TOASTS.success.title} text={text ?? TOASTS.success.text} />),
  error: (text) => show('error', <Body title={TOASTS.error.title} text={text ?? TOASTS.error.text} />),
  // Issue 26: the server's reason, when it gives one, under the specification's words (never replaced by them).
  associated: (text) =>
    show(
      'warning',
      <Body title={TOASTS.associated.title} text={text && text !== TOASTS.associated.text ? `${TOASTS.associated.text}. ${text}` : TOASTS.associated.text} />,
    ),
  info: (text) => show('info', text),
};

const Container = lazy(async () => {
  const { ToastContainer, Slide } = await load();
  // Issue 26: never over a record's toolbar (top right: «Imprimir», «Rectificar»…): at the bottom left on a desktop,
  // beside the side list; at the top on a phone, where the bottom is the form's «Guardar».
  const telefono = typeof window !== 'undefined' && window.matchMedia?.('(max-width: 640px)').matches;
  return { default: () => <ToastContainer position={telefono ? 'top-center' : 'bottom-left'} transition={Slide} newestOnTop closeOnClick limit={3} /> };
});

/** Mounts the toast container once the first toast is asked for. */
export function Toaster() {
  const active = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => wanted,
  );
  return active ? (
    <Suspense fallback={null}>
      <Container />
    </Suspense>
  ) : null;
}
