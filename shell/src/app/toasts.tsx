import { toast, type ToastOptions } from 'react-toastify';
import { CONSTANTS, TOASTS, type Toasts } from 'shared';

const options: ToastOptions = { autoClose: CONSTANTS.toastMs };

function Body({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <strong style={{ display: 'block' }}>{title}</strong>
      <span style={{ fontSize: 14 }}>{text}</span>
    </div>
  );
}

/** The specification's toasts (§8), 3000 ms each. */
export const toasts: Toasts = {
  success: (text) => void toast.success(<Body title={TOASTS.success.title} text={text ?? TOASTS.success.text} />, options),
  error: (text) => void toast.error(<Body title={TOASTS.error.title} text={text ?? TOASTS.error.text} />, options),
  associated: (text) => void toast.warning(<Body title={TOASTS.associated.title} text={text ?? TOASTS.associated.text} />, options),
  info: (text) => void toast.info(text, options),
};
