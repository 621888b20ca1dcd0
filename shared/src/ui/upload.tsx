import { useId, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { ApiHttpError } from '../api/client';
import { useShell } from '../context';
import type { Archivo } from '../domain/entities';
import { MESSAGES } from '../domain/messages';
import { Button, ErrorText } from './primitives';

/** What `subirarchivo` accepts: the server checks the bytes again; this spares a useless upload. */
export const IMAGE_UPLOAD = {
  maxBytes: 2 * 1024 * 1024,
  types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon'],
  extensions: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.ico'],
} as const;

/** '1,5 MB', '820 KB'. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024).toLocaleString('es-ES')} KB`;
  return `${(n / (1024 * 1024)).toLocaleString('es-ES', { maximumFractionDigits: 1 })} MB`;
}

/** The Spanish message of a failed upload: the server's field or message, or the generic one. */
export function uploadErrorMessage(err: unknown, fallback: string = MESSAGES.invalidFile): string {
  if (err instanceof ApiHttpError) return Object.values(err.body.errors ?? {})[0] ?? err.body.message ?? fallback;
  return fallback;
}

const StyledLabel = styled.span`
  font-size: 13px;
  font-weight: 600;
  color: ${({ theme }) => theme.gray[700]};
`;
const StyledHint = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.gray[500]};
`;

const StyledImage = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  min-width: 0;
  .row { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
  .preview {
    flex: none;
    width: 96px;
    height: 96px;
    border-radius: 8px;
    border: 1px dashed ${({ theme }) => theme.gray[300]};
    background: repeating-conic-gradient(${({ theme }) => theme.gray[100]} 0% 25%, #fff 0% 50%) 50% / 16px 16px;
    display: grid;
    place-items: center;
    overflow: hidden;
    color: ${({ theme }) => theme.gray[500]};
    font-size: 12px;
    text-align: center;
  }
  .preview img { max-width: 100%; max-height: 100%; object-fit: contain; }
  .buttons { display: flex; gap: 8px; flex-wrap: wrap; }
  input[type='file'] { position: absolute; width: 1px; height: 1px; opacity: 0; }
`;

export type ImageFieldProps = {
  label: ReactNode;
  /** URL of the current image (`/archivos/<id>`), or null. */
  value: string | null | undefined;
  onChange: (url: string | null) => void;
  hint?: ReactNode;
  error?: string;
  /** The multipart action; default `subirarchivo`. */
  ac?: string;
  disabled?: boolean;
};

/** An image uploaded at once through the multipart client, with a preview and a remove button. */
export function ImageField({ label, value, onChange, hint, error, ac = 'subirarchivo', disabled }: ImageFieldProps) {
  const { api } = useShell();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const handleFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const name = file.name.toLowerCase();
    const typeOk = (IMAGE_UPLOAD.types as readonly string[]).includes(file.type) || IMAGE_UPLOAD.extensions.some((x) => name.endsWith(x));
    if (!typeOk) return setProblem(MESSAGES.invalidFile);
    if (file.size > IMAGE_UPLOAD.maxBytes) return setProblem(MESSAGES.fileTooLarge);
    setProblem(null);
    setBusy(true);
    try {
      const res = await api.upload<Archivo>(ac, file);
      const url = res.RESULT === '0' ? res.data?.[0]?.url : undefined;
      if (url) onChange(url);
      else setProblem(res.message ?? MESSAGES.invalidFile);
    } catch (e) {
      setProblem(uploadErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const shown = problem ?? error;
  return (
    <StyledImage>
      <StyledLabel id={`${id}-label`}>{label}</StyledLabel>
      <div className="row">
        <div className="preview" aria-live="polite">
          {busy ? 'Subiendo…' : value ? <img src={value} alt={`Vista previa: ${typeof label === 'string' ? label : 'imagen'}`} /> : 'Sin imagen'}
        </div>
        <div className="buttons">
          <input
            ref={input}
            id={id}
            type="file"
            accept={[...IMAGE_UPLOAD.types, ...IMAGE_UPLOAD.extensions].join(',')}
            aria-labelledby={`${id}-label`}
            disabled={disabled || busy}
            onChange={(e) => void handleFile(e.target.files?.[0])}
          />
          <Button type="button" $variant="secondary" $small disabled={disabled || busy} onClick={() => input.current?.click()}>
            {value ? 'Cambiar imagen' : 'Subir imagen'}
          </Button>
          {value && (
            <Button type="button" $variant="ghost" $small disabled={disabled || busy} onClick={() => onChange(null)}>
              Quitar
            </Button>
          )}
        </div>
      </div>
      {shown ? <ErrorText>{shown}</ErrorText> : <StyledHint>{hint ?? `PNG, JPG, GIF, WEBP o ICO de hasta ${formatBytes(IMAGE_UPLOAD.maxBytes)}`}</StyledHint>}
    </StyledImage>
  );
}

const StyledFile = styled.div<{ $invalid?: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 6px;
  min-width: 0;
  .box {
    display: flex;
    align-items: center;
    gap: 10px;
    flex-wrap: wrap;
    padding: 10px 12px;
    border: 1px dashed ${({ theme, $invalid }) => ($invalid ? theme.danger : theme.gray[300])};
    border-radius: 8px;
    background: ${({ theme }) => theme.gray[50]};
  }
  .name { font-size: 14px; color: ${({ theme }) => theme.gray[800]}; overflow-wrap: anywhere; }
  .none { font-size: 14px; color: ${({ theme }) => theme.gray[500]}; }
  input[type='file'] { position: absolute; width: 1px; height: 1px; opacity: 0; }
`;

export type FileFieldProps = {
  label: ReactNode;
  file: File | null;
  onChange: (file: File | null) => void;
  /** The input's accept attribute, e.g. '.json,application/json'. */
  accept?: string;
  hint?: ReactNode;
  error?: string;
  disabled?: boolean;
};

/** Picks one local file (a backup, a CSV to import) without uploading it; the screen decides when. */
export function FileField({ label, file, onChange, accept, hint, error, disabled }: FileFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <StyledFile $invalid={!!error}>
      <StyledLabel id={`${id}-label`}>{label}</StyledLabel>
      <div className="box">
        <input
          ref={input}
          id={id}
          type="file"
          accept={accept}
          aria-labelledby={`${id}-label`}
          aria-invalid={!!error}
          disabled={disabled}
          onChange={(e) => {
            onChange(e.target.files?.[0] ?? null);
            e.target.value = '';
          }}
        />
        <Button type="button" $variant="secondary" $small disabled={disabled} onClick={() => input.current?.click()}>
          {file ? 'Elegir otro archivo' : 'Elegir archivo'}
        </Button>
        {file ? (
          <span className="name">
            {file.name} ({formatBytes(file.size)})
          </span>
        ) : (
          <span className="none">Ningún archivo seleccionado</span>
        )}
        {file && !disabled && (
          <Button type="button" $variant="ghost" $small onClick={() => onChange(null)}>
            Quitar
          </Button>
        )}
      </div>
      {error ? <ErrorText>{error}</ErrorText> : hint ? <StyledHint>{hint}</StyledHint> : null}
    </StyledFile>
  );
}
