import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import styled from 'styled-components';
import type { Theme } from './theme';
import { ErrorText } from './primitives';
import { normalizeNif } from '../domain/nif';

type T = { theme: Theme };

const StyledField = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  min-width: 0;
`;

const StyledLabel = styled.label`
  font-size: 13px;
  font-weight: 600;
  color: ${({ theme }: T) => theme.gray[700]};
`;

const inputCss = ({ theme, $invalid }: T & { $invalid?: boolean }) => `
  font: inherit;
  padding: 8px 10px;
  min-height: 38px;
  border-radius: 6px;
  border: 1px solid ${$invalid ? theme.danger : theme.gray[300]};
  background: #fff;
  color: ${theme.gray[900]};
  width: 100%;
  box-sizing: border-box;
  &:focus { outline: 2px solid ${theme.primary[300]}; border-color: ${theme.primary[500]}; }
  &:disabled, &[readonly] { background: ${theme.gray[50]}; color: ${theme.gray[600]}; }
`;

export const StyledInput = styled.input<{ $invalid?: boolean }>`
  ${(p) => inputCss(p as T & { $invalid?: boolean })}
`;
const StyledSelect = styled.select<{ $invalid?: boolean }>`
  ${(p) => inputCss(p as T & { $invalid?: boolean })}
`;
const StyledHint = styled.span`
  font-size: 12px;
  color: ${({ theme }: T) => theme.gray[500]};
`;

const StyledRequired = styled.span`
  color: ${({ theme }: T) => theme.danger};
  margin-left: 2px;
`;

type FieldShellProps = { id: string; label: ReactNode; error?: string; hint?: ReactNode; required?: boolean; children: ReactNode };

function FieldShell({ id, label, error, hint, required, children }: FieldShellProps) {
  return (
    <StyledField>
      <StyledLabel htmlFor={id}>
        {label}
        {required && <StyledRequired aria-hidden>*</StyledRequired>}
      </StyledLabel>
      {children}
      {error ? <ErrorText id={`${id}-error`}>{error}</ErrorText> : hint ? <StyledHint>{hint}</StyledHint> : null}
    </StyledField>
  );
}

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  value: string | number | null | undefined;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
};

export function TextField({ label, value, onChange, error, hint, id, ...rest }: TextFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} required={rest.required}>
      <StyledInput
        id={fieldId}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        $invalid={!!error}
        aria-invalid={!!error}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        {...rest}
      />
    </FieldShell>
  );
}

/**
 * A NIF, CIF or NIE: typed any way ('B-58378431', 'b 5837 8431', 'ES B58378431'), shown normalised
 * when the user leaves the box ('B58378431'), as the server stores it and the documents print it.
 */
export function NifField({ onChange, onBlur, value, ...rest }: TextFieldProps) {
  return (
    <TextField
      autoComplete="off"
      autoCapitalize="characters"
      {...rest}
      value={value}
      onChange={(v) => onChange(v.toUpperCase())}
      onBlur={(e) => {
        const typed = String(value ?? '');
        const normal = normalizeNif(typed);
        if (normal !== typed) onChange(normal);
        onBlur?.(e);
      }}
    />
  );
}

/** `disabled`: shown but not choosable (a role the user may not give, issue 24). */
export type SelectOption = { value: string; label: string; disabled?: boolean };
export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  value: string | number | null | undefined;
  options: SelectOption[];
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
  /** Under the select while there is no error. */
  hint?: ReactNode;
};

export function SelectField({ label, value, options, onChange, error, placeholder, hint, id, ...rest }: SelectFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} required={rest.required}>
      <StyledSelect id={fieldId} value={value ?? ''} onChange={(e) => onChange(e.target.value)} $invalid={!!error} aria-invalid={!!error} {...rest}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </StyledSelect>
    </FieldShell>
  );
}

const StyledSwitch = styled.label<{ $on: boolean }>`
  display: flex;
  align-items: center;
  gap: 10px;
  cursor: pointer;
  font-size: 14px;
  padding: 6px 0;
  user-select: none;
  input { position: absolute; opacity: 0; width: 1px; height: 1px; }
  .track {
    flex: none;
    width: 38px;
    height: 22px;
    border-radius: 999px;
    background: ${({ theme, $on }) => ($on ? (theme as Theme).primary[600] : (theme as Theme).gray[300])};
    position: relative;
    transition: background 0.15s;
  }
  .track::after {
    content: '';
    position: absolute;
    top: 3px;
    left: ${({ $on }) => ($on ? '19px' : '3px')};
    width: 16px;
    height: 16px;
    border-radius: 50%;
    background: #fff;
    transition: left 0.15s;
  }
  input:focus-visible + .track { outline: 2px solid ${({ theme }: T) => theme.primary[500]}; outline-offset: 2px; }
  input:disabled + .track { opacity: 0.5; }
`;

export type SwitchFieldProps = {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  hint?: ReactNode;
  name?: string;
  error?: string;
};

export function SwitchField({ label, checked, onChange, disabled, hint, name, error }: SwitchFieldProps) {
  const errorId = useId();
  return (
    <StyledSwitch $on={checked}>
      <input
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox exposes its checked state to the switch role; ARIA in HTML forbids aria-checked on input type=checkbox.
        role="switch"
        name={name}
        checked={checked}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="track" aria-hidden />
      <span>
        {label}
        {error ? <ErrorText id={errorId} style={{ display: 'block' }}>{error}</ErrorText> : hint ? <StyledHint as="div">{hint}</StyledHint> : null}
      </span>
    </StyledSwitch>
  );
}
