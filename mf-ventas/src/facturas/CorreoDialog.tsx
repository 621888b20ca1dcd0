import { useState } from 'react';
import { ApiHttpError, MESSAGES, TextField, archivoPdf, checkField, documentosPdfBlob, useShell, type Documento, type DocumentosPdfOptions } from 'shared';
import { Dialogo } from './Dialogo';

type CorreoDialogProps = {
  factura: Documento;
  /** The customer's address, offered first (the server uses it when none is given). */
  email: string;
  /** The PDF's options (company for the QR, the customer's full data): `useImprimirDocumento().opciones`. */
  pdfOpciones: (d: Documento) => Promise<Omit<DocumentosPdfOptions, 'fileName'>>;
  onClose: () => void;
};

/**
 * «Enviar por correo»: the invoice's PDF (made here, with its fiscal QR) goes to the server, which mails it
 * to the address given or the customer's (`enviarfactura`, through its outbox without SMTP).
 */
export function CorreoDialog({ factura, email: inicial, pdfOpciones, onClose }: CorreoDialogProps) {
  const { api, toast } = useShell();
  const [email, setEmail] = useState(inicial);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const enviar = async () => {
    const checked = checkField('email', { type: 'email', required: true }, email);
    if ('error' in checked) return setError(checked.error);
    setBusy(true);
    try {
      const blob = await documentosPdfBlob([factura], await pdfOpciones(factura));
      const fields: Record<string, string | number> = { id: factura.id };
      if (email.trim()) fields.email = email.trim();
      const res = await api.upload<unknown>('enviarfactura', blob, archivoPdf(factura.numero), fields);
      if (res.RESULT === '0') {
        toast.success(res.message ?? MESSAGES.facturaEnviadaPorCorreo);
        onClose();
      } else if (res.RESULT === '2') toast.associated();
      else toast.error(res.message);
    } catch (e) {
      const body = e instanceof ApiHttpError ? e.body : undefined;
      if (body?.errors?.email) setError(body.errors.email);
      else toast.error(body?.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialogo
      title="Enviar la factura por correo"
      text={`Se enviará el PDF de ${factura.numero} como adjunto.`}
      confirmLabel="Enviar"
      busy={busy}
      onConfirm={() => void enviar()}
      onCancel={onClose}
    >
      <TextField
        label="Correo electrónico"
        type="email"
        value={email}
        error={error}
        hint={inicial ? undefined : 'El cliente no tiene correo electrónico: indíquelo.'}
        onChange={(v) => {
          setEmail(v);
          setError(undefined);
        }}
      />
    </Dialogo>
  );
}
