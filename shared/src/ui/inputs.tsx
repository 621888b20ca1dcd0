import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { useShell } from '../context';
import type { ListParams } from '../domain/api';
import { parseDecimal } from '../domain/decimal';
import { formatDecimal } from '../domain/format';
import { MESSAGES } from '../domain/messages';
import { TextField, type SelectOption, type TextFieldProps } from './fields';
import { ErrorText } from './primitives';

/* Inputs that every section needs beyond the plain fields: exact decimals, progress, many choices, search. */

/** Text of a scaled integer for an input: es-ES decimals without thousands dots, so it parses back the same. */
export function decimalInputText(value: bigint | number | string | null | undefined, scale: number, minFraction = Math.min(scale, 2)): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return formatDecimal(BigInt(value), scale, minFraction).replace(/\./g, '');
}

export type DecimalFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'inputMode'> & {
  /** The scaled integer (82562 at scale 4 is 8,2562), null when empty, or the text typed when it isn't a number. */
  value: bigint | number | string | null | undefined;
  /** Decimals of the scaled integer: 2 for cents and percentages, 4 for unit prices, 3 for quantities. */
  scale: number;
  /** Decimals always shown after leaving the field (default: up to 2). */
  minFraction?: number;
  /**
   * Every keystroke: the scaled integer, null when empty, or the raw text when it isn't a number.
   * The raw text fails the schema's `int` rule, so the form shows 'Debe ser un número válido' and sends nothing.
   */
  onChange: (value: bigint | string | null) => void;
  /** Unit after the box: '€', '%', 'kg'. */
  suffix?: string;
  /** Offers the minus sign on phone keyboards. */
  allowNegative?: boolean;
};

const StyledDecimal = styled.div`
  position: relative;
  min-width: 0;
  input { text-align: right; font-variant-numeric: tabular-nums; }
  &.suffixed input { padding-right: 32px; }
  .suffix {
    position: absolute;
    right: 10px;
    top: 29px;
    font-size: 14px;
    color: ${({ theme }) => theme.gray[500]};
    pointer-events: none;
  }
`;

/**
 * A number typed the Spanish way ('1.234,56', '9,99', '-3') and kept as an exact scaled integer
 * (BigInt): never binary floating point. Another field may change the value (a PVP computed from
 * the net price): the text follows, unless it already means that value.
 *
 * @example
 * <DecimalField label="PVP" scale={2} suffix="€" value={values.pvp_1} onChange={(v) => set('pvp_1', v)} />
 */
export function DecimalField({ value, scale, minFraction, onChange, suffix, allowNegative, error, onBlur, onFocus, ...rest }: DecimalFieldProps) {
  const [text, setText] = useState(() => decimalInputText(value, scale, minFraction));
  const [seen, setSeen] = useState(value);
  // Adjusted while rendering (not in an effect), so a loaded or computed value never shows a stale frame.
  if (value !== seen) {
    setSeen(value);
    if (typeof value !== 'string') {
      const typed = text.trim() === '' ? null : parseDecimal(text, scale);
      const wanted = value === null || value === undefined ? null : BigInt(value);
      if (typed !== wanted) setText(decimalInputText(value, scale, minFraction));
    }
  }

  const handleChange = (t: string) => {
    setText(t);
    if (t.trim() === '') return onChange(null);
    const parsed = parseDecimal(t, scale);
    onChange(parsed === null ? t : parsed);
  };

  const invalid = typeof value === 'string' && value.trim() !== '';
  return (
    <StyledDecimal className={suffix ? 'suffixed' : undefined}>
      <TextField
        {...rest}
        value={text}
        inputMode={allowNegative ? 'text' : 'decimal'}
        autoComplete="off"
        error={error ?? (invalid ? MESSAGES.invalidNumber : undefined)}
        onChange={handleChange}
        onFocus={(e) => {
          // Typing replaces the amount (a '0,00' is never typed after).
          e.currentTarget.select();
          onFocus?.(e);
        }}
        onBlur={(e) => {
          // '9,9' becomes '9,90' once the user leaves the box.
          if (typeof value !== 'string') setText(decimalInputText(value, scale, minFraction));
          onBlur?.(e);
        }}
      />
      {suffix && (
        <span className="suffix" aria-hidden>
          {suffix}
        </span>
      )}
    </StyledDecimal>
  );
}

const StyledProgress = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  font-size: 13px;
  color: ${({ theme }) => theme.gray[600]};
  .top { display: flex; justify-content: space-between; gap: 8px; }
  .track { height: 8px; border-radius: 999px; background: ${({ theme }) => theme.primary[100]}; overflow: hidden; }
  .fill { height: 100%; border-radius: 999px; background: ${({ theme }) => theme.primary[600]}; transition: width 0.2s; }
`;

export type ProgressBarProps = {
  /** Done so far. */
  value: number;
  max: number;
  /** What is in progress: 'Validando filas'. */
  label: string;
  /** Unit of the count: 'filas'. */
  unit?: string;
};

/** Work whose progress is known (rows validated, pages exported): the label, 'n de m' and the bar. */
export function ProgressBar({ value, max, label, unit }: ProgressBarProps) {
  const pct = max > 0 ? Math.min(100, Math.floor((value * 100) / max)) : 0;
  return (
    <StyledProgress>
      <div className="top">
        <span>{label}</span>
        <span>
          {formatDecimal(value, 0)} de {formatDecimal(max, 0)}
          {unit ? ` ${unit}` : ''} ({pct} %)
        </span>
      </div>
      <div className="track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value} aria-valuetext={`${pct} %`}>
        <div className="fill" style={{ width: `${pct}%` }} />
      </div>
    </StyledProgress>
  );
}

const StyledChecklist = styled.fieldset`
  border: 0;
  margin: 0;
  padding: 0;
  min-width: 0;
  legend { font-size: 13px; font-weight: 600; color: ${({ theme }) => theme.gray[700]}; padding: 0; margin-bottom: 6px; }
  .count { font-weight: 400; color: ${({ theme }) => theme.gray[500]}; margin-left: 6px; }
  .filter { margin-bottom: 8px; max-width: 320px; }
  .options {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
    gap: 2px 12px;
    max-height: 260px;
    overflow-y: auto;
  }
  label { display: flex; align-items: center; gap: 8px; font-size: 14px; padding: 6px 0; cursor: pointer; min-height: 32px; }
  input[type='checkbox'] { width: 18px; height: 18px; flex: none; }
  .empty, .hint { font-size: 13px; color: ${({ theme }) => theme.gray[500]}; }
`;

export type CheckboxListFieldProps = {
  label: ReactNode;
  options: SelectOption[];
  /** The chosen options' values. */
  value: string[];
  onChange: (value: string[]) => void;
  hint?: ReactNode;
  error?: string;
  /** Shown when there are no options. */
  empty?: ReactNode;
  /** A filter box appears above this many options (default 12). */
  filterFrom?: number;
  disabled?: boolean;
};

/** Several choices among a list (the materials of an article): checkboxes, with a filter when the list is long. */
export function CheckboxListField({ label, options, value, onChange, hint, error, empty = 'No hay opciones', filterFrom = 12, disabled }: CheckboxListFieldProps) {
  const [filter, setFilter] = useState('');
  const chosen = new Set(value);
  const needle = filter.trim().toLocaleLowerCase('es');
  const shown = needle ? options.filter((o) => o.label.toLocaleLowerCase('es').includes(needle) || chosen.has(o.value)) : options;
  const toggle = (v: string, on: boolean) => onChange(on ? [...value, v] : value.filter((x) => x !== v));
  return (
    <StyledChecklist disabled={disabled} aria-invalid={error ? true : undefined}>
      <legend>
        {label}
        <span className="count">({value.length} seleccionados)</span>
      </legend>
      {options.length >= filterFrom && (
        <div className="filter">
          <TextField label="Filtrar" type="search" value={filter} onChange={setFilter} placeholder="Escriba para filtrar…" />
        </div>
      )}
      {options.length === 0 ? (
        <div className="empty">{empty}</div>
      ) : (
        <div className="options">
          {shown.map((o) => (
            <label key={o.value}>
              <input type="checkbox" checked={chosen.has(o.value)} disabled={o.disabled} onChange={(e) => toggle(o.value, e.target.checked)} />
              {o.label}
            </label>
          ))}
        </div>
      )}
      {error ? <ErrorText>{error}</ErrorText> : hint ? <div className="hint">{hint}</div> : null}
    </StyledChecklist>
  );
}

const StyledPicker = styled.div`
  position: relative;
  min-width: 0;
  .popup {
    position: absolute;
    z-index: 20;
    left: 0;
    right: 0;
    margin: 4px 0 0;
    padding: 4px;
    list-style: none;
    background: #fff;
    border: 1px solid ${({ theme }) => theme.gray[300]};
    border-radius: 6px;
    box-shadow: 0 10px 24px rgb(15 23 42 / 0.12);
    max-height: 280px;
    overflow-y: auto;
  }
  .option, .none { padding: 8px 10px; border-radius: 4px; font-size: 14px; }
  .option { cursor: pointer; }
  .option[aria-selected='true'], .option:hover { background: ${({ theme }) => theme.primary[50]}; }
  .option .detail { display: block; font-size: 12px; color: ${({ theme }) => theme.gray[500]}; }
  .none { cursor: default; color: ${({ theme }) => theme.gray[500]}; }
`;

export type PickerOption = SelectOption & { detail?: string };

export type SearchPickerProps<R> = {
  label: ReactNode;
  /** The `listado<entidades>` action searched with `q`. */
  ac: string;
  /** Fixed filters (activo: 1). */
  params?: ListParams;
  toOption: (row: R) => PickerOption;
  onPick: (row: R) => void;
  /** Values not offered (already chosen, the record itself). */
  exclude?: string[];
  placeholder?: string;
  hint?: ReactNode;
  /** Results shown (default 10). */
  limit?: number;
  disabled?: boolean;
  /** Shown under the box, which is then marked invalid (the form's first error takes the focus). */
  error?: string;
  /** Takes the focus when it appears (a new document's party: issue 26). */
  autoFocus?: boolean;
};

/**
 * Picks one record among many (an article among 100.000) by searching the server as the user
 * types; Enter picks the highlighted one, or the only result (a scanned barcode).
 *
 * @example
 * <SearchPicker<Articulo> label="Añadir componente" ac="listadoarticulos" params={{ activo: 1 }}
 *   toOption={(a) => ({ value: String(a.id), label: a.descripcion, detail: a.codigo })} onPick={add} />
 */
export function SearchPicker<R>({ label, ac, params, toOption, onPick, exclude = [], placeholder = 'Buscar…', hint, limit = 10, disabled, error, autoFocus }: SearchPickerProps<R>) {
  const { api } = useShell();
  const listId = useId();
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<R[]>([]);
  const [open, setOpen] = useState(false);
  const [searching, setSearching] = useState(false);
  const [active, setActive] = useState(0);
  // The list opens with its first option highlighted (Enter takes it) but not yet reached with the
  // arrows: the first ↓ lands on that first option instead of skipping it.
  const [navegado, setNavegado] = useState(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const paramsKey = JSON.stringify(params ?? {});

  useEffect(() => () => clearTimeout(timer.current), []);
  // The highlighted option stays in sight while the arrows move through a list taller than its box.
  useEffect(() => {
    if (open) document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active, listId]);

  const search = (text: string) => {
    clearTimeout(timer.current);
    const my = ++seq.current;
    if (text.trim() === '') {
      setRows([]);
      setOpen(false);
      setSearching(false);
      return;
    }
    setSearching(true);
    timer.current = setTimeout(async () => {
      try {
        const res = await api.get<R>(ac, { ...(JSON.parse(paramsKey) as ListParams), q: text.trim(), pagina: 1, porPagina: limit });
        if (my !== seq.current) return;
        setRows(res.RESULT === '0' ? (res.data ?? []) : []);
      } catch {
        if (my === seq.current) setRows([]);
      } finally {
        if (my === seq.current) {
          setSearching(false);
          setOpen(true);
          setActive(0);
          setNavegado(false);
        }
      }
    }, 250);
  };

  const excluded = new Set(exclude);
  const offered = rows.map((r) => ({ row: r, option: toOption(r) })).filter((o) => !excluded.has(o.option.value));

  const pick = (row: R) => {
    onPick(row);
    seq.current++;
    setQ('');
    setRows([]);
    setOpen(false);
  };

  const handleKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && offered.length) {
      e.preventDefault();
      const reached = open && navegado;
      setOpen(true);
      setNavegado(true);
      setActive((a) => (reached ? Math.min(offered.length - 1, a + 1) : Math.min(offered.length - 1, Math.max(0, a))));
    } else if (e.key === 'ArrowUp' && offered.length) {
      e.preventDefault();
      setNavegado(true);
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter') {
      // Never submits the surrounding form.
      e.preventDefault();
      const chosen = offered[open ? active : 0];
      if (chosen && (open || offered.length === 1)) pick(chosen.row);
    } else if (e.key === 'Escape') setOpen(false);
  };

  return (
    <StyledPicker>
      <TextField
        label={label}
        type="search"
        role="combobox"
        aria-expanded={open && offered.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && offered[active] ? `${listId}-${active}` : undefined}
        value={q}
        placeholder={placeholder}
        hint={searching ? 'Buscando…' : hint}
        error={error}
        disabled={disabled}
        autoComplete="off"
        autoFocus={autoFocus}
        onChange={(t) => {
          setQ(t);
          search(t);
        }}
        onKeyDown={handleKey}
        onBlur={() => setOpen(false)}
        onFocus={() => rows.length && setOpen(true)}
      />
      {/* The focus stays in the input (aria-activedescendant names the highlighted option): the
          arrows move through the options and Enter picks, as handleKey does. */}
      {open &&
        (offered.length === 0 ? (
          <div className="popup">
            <div className="none" role="status">
              No hay resultados
            </div>
          </div>
        ) : (
          <div className="popup" id={listId} role="listbox" aria-label={typeof label === 'string' ? label : 'Resultados'}>
            {offered.map(({ row, option }, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users pick from the combobox input (arrows and Enter in handleKey); the click is the pointer's way.
              // biome-ignore lint/a11y/useFocusableInteractive: options of an aria-activedescendant combobox never take the focus, which stays in the input (WAI-ARIA combobox pattern).
              <div
                key={option.value}
                id={`${listId}-${i}`}
                role="option"
                className="option"
                aria-selected={i === active}
                // Before the input's blur closes the list.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(row)}
              >
                {option.label}
                {option.detail && <span className="detail">{option.detail}</span>}
              </div>
            ))}
          </div>
        ))}
    </StyledPicker>
  );
}

const StyledTextArea = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  min-width: 0;
  label { font-size: 13px; font-weight: 600; color: ${({ theme }) => theme.gray[700]}; }
  label .req { color: ${({ theme }) => theme.danger}; margin-left: 2px; }
  textarea {
    font: inherit;
    padding: 8px 10px;
    border-radius: 6px;
    border: 1px solid ${({ theme }) => theme.gray[300]};
    background: #fff;
    color: ${({ theme }) => theme.gray[900]};
    width: 100%;
    box-sizing: border-box;
    resize: vertical;
  }
  textarea[aria-invalid='true'] { border-color: ${({ theme }) => theme.danger}; }
  textarea:focus { outline: 2px solid ${({ theme }) => theme.primary[300]}; border-color: ${({ theme }) => theme.primary[500]}; }
  .foot { display: flex; justify-content: space-between; gap: 8px; font-size: 12px; color: ${({ theme }) => theme.gray[500]}; }
`;

export type TextAreaFieldProps = {
  label: ReactNode;
  value: string | null | undefined;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  rows?: number;
  /** Shows 'n / max' under the box and stops typing past it. */
  maxLength?: number;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
};

/** Several lines of text (a long description, observations), with a character count when there is a limit. */
export function TextAreaField({ label, value, onChange, error, hint, rows = 4, maxLength, required, disabled, placeholder }: TextAreaFieldProps) {
  const id = useId();
  const text = value ?? '';
  return (
    <StyledTextArea>
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="req" aria-hidden>
            *
          </span>
        )}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={text}
        maxLength={maxLength}
        disabled={disabled}
        placeholder={placeholder}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="foot">
        {error ? <ErrorText id={`${id}-error`}>{error}</ErrorText> : <span>{hint}</span>}
        {maxLength !== undefined && (
          <span>
            {text.length} / {maxLength}
          </span>
        )}
      </div>
    </StyledTextArea>
  );
}
