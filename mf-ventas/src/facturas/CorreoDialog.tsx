import { CorreoDocumentoDialog, MESSAGES, type Documento, type DocumentosPdfOptions } from 'shared';

type CorreoDialogProps = {
  factura: Documento;
  /** The customer's address, offered first (the server uses it when none is given). */
  email: string;
  /** The PDF's options (company for the QR, the customer's full data): `useImprimirDocumento().opciones`. */
  pdfOpciones: (d: Documento) => Promise<Omit<DocumentosPdfOptions, 'fileName'>>;
  onClose: () => void;
};

/**
 * «Enviar por correo»: recipient, subject and message shown first and editable; then the invoice's PDF (made here,
 * with its fiscal QR) goes to the server, which mails it (`enviarfactura`, through its outbox without SMTP).
 */
export function CorreoDialog({ factura, email, pdfOpciones, onClose }: CorreoDialogProps) {
  return (
    <CorreoDocumentoDialog
      documento={factura}
      ac="enviarfactura"
      title={factura.tipo === 'rectificativa' ? 'Enviar la factura rectificativa por correo' : 'Enviar la factura por correo'}
      email={email}
      destinatario={factura.cliente_nombre}
      sinEmail="El cliente no tiene correo electrónico: indíquelo."
      pdfOpciones={pdfOpciones}
      enviado={MESSAGES.facturaEnviadaPorCorreo}
      onClose={onClose}
    />
  );
}
