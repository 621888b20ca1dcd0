import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiHttpError } from '../api/client';
import { useShell } from '../context';
import { correoDocumento } from '../domain/correo';
import type { Documento } from '../domain/documentos';
import { checkField } from '../domain/validation';
import { documentosPdfBlob, type DocumentosPdfOptions } from '../io/documentosPdf';
import { TextField } from '../ui/fields';
import { TextAreaField } from '../ui/inputs';
import { Button } from '../ui/primitives';
import { useDialogKeyboard } from '../ui/useDialogKeyboard';
import { LineasDialogBackdrop, LineasDialogBox } from './LineasDialog';
import { archivoPdf } from './terceros';

export type CorreoDocumentoDialogProps = {
  documento: Documento;
  /** The action that mails it: `enviarfactura`, `enviarcorreopedidocompra`. */
  ac: string;
  /** 'Enviar la factura por correo'. */
  title: string;
  /** The party's address, offered first (the server uses it when none is given). */
  email: string;
  /** Who it goes to (the party's name), for the greeting. */
  destinatario?: string | null;
  /** 'El cliente no tiene correo electrónico: indíquelo.' */
  sinEmail: string;
  /** The PDF's options (company, the party's full data): `useImprimirDocumento().opciones`. */
  pdfOpciones: (d: Documento) => Promise<Omit<DocumentosPdfOptions, 'fileName'>>;
  /** The success toast when the server answers none. */
  enviado: string;
  onClose: () => void;
};

/**
 * «Enviar por correo» of a document: before anything leaves, the clerk sees and may change the recipient, the
 * subject and the message (the defaults of `correoDocumento`, the same the server would use); then the PDF made
 * here goes to the server, which mails it (its outbox without SMTP).
 */
export function CorreoDocumentoDialog({ documento, ac, title, email: inicial, destinatario, sinEmail, pdfOpciones, enviado, onClose }: CorreoDocumentoDialogProps) {
  const { api, toast, config } = useShell();
  const titleId = useId();
  const boxRef = useRef<HTMLFormElement>(null);
  const empresa = config?.nombre_comercial || config?.razon_social || 'Manager TPV';
  const defecto = correoDocumento({ tipo: documento.tipo, numero: documento.numero, fecha: documento.fecha, destinatario, empresa, observaciones: documento.observaciones_cliente });
  const [email, setEmail] = useState(inicial);
  const [asunto, setAsunto] = useState(defecto.asunto);
  const [mensaje, setMensaje] = useState(defecto.mensaje);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useDialogKeyboard({ foco: boxRef, onEscape: onClose, ocupado: busy });

  const enviar = async () => {
    const e: Record<string, string> = {};
    const checked = checkField('email', { type: 'email', required: true, max: 200 }, email);
    if ('error' in checked) e.email = checked.error;
    if (!asunto.trim()) e.asunto = 'Escriba el asunto';
    if (!mensaje.trim()) e.mensaje = 'Escriba el mensaje';
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    try {
      const blob = await documentosPdfBlob([documento], await pdfOpciones(documento));
      const res = await api.upload<unknown>(ac, blob, archivoPdf(documento.numero), { id: documento.id, email: email.trim(), asunto: asunto.trim(), mensaje });
      if (res.RESULT === '0') {
        toast.success(res.message ?? enviado);
        onClose();
      } else if (res.RESULT === '2') toast.associated(res.message);
      else toast.error(res.message);
    } catch (err) {
      const body = err instanceof ApiHttpError ? err.body : undefined;
      if (body?.errors) setErrors(body.errors);
      else toast.error(body?.message);
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) void enviar();
  };

  return (
    <LineasDialogBackdrop onClick={busy ? undefined : onClose}>
      <LineasDialogBox as="form" ref={boxRef} role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()} onSubmit={submit} noValidate>
        <h2 id={titleId}>{title}</h2>
        <p>Se enviará el PDF de {documento.numero} como adjunto. Revise el destinatario, el asunto y el mensaje.</p>
        <div style={{ display: 'grid', gap: 12 }}>
          <TextField
            label="Para"
            type="email"
            required
            value={email}
            error={errors.email}
            hint={inicial ? undefined : sinEmail}
            onChange={(v) => {
              setEmail(v);
              setErrors(({ email: _, ...rest }) => rest);
            }}
          />
          <TextField label="Asunto" required maxLength={200} value={asunto} error={errors.asunto} onChange={setAsunto} />
          <TextAreaField label="Mensaje" required rows={7} maxLength={5000} value={mensaje} error={errors.mensaje} onChange={setMensaje} />
        </div>
        <div className="actions">
          <Button type="button" $variant="secondary" onClick={onClose} disabled={busy}>
            Cancelar
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            Enviar
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
