import styled from 'styled-components';
import { CONF_FIELD, FLAG_GROUPS, FLAG_INFO, SwitchField, type FlagGroup, type FlagName } from 'shared';

const StyledGroups = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(auto-fill, minmax(280px, 1fr));
  align-items: start;
  ${({ theme }) => theme.phone} { grid-template-columns: minmax(0, 1fr); }
`;

const StyledGroup = styled.fieldset`
  margin: 0;
  min-width: 0;
  border: 1px solid ${({ theme }) => theme.gray[200]};
  border-radius: ${({ theme }) => theme.radius};
  padding: 8px 14px 10px;
  legend {
    padding: 0 6px;
    margin-left: -6px;
    font-weight: 700;
    font-size: 14px;
    color: ${({ theme }) => theme.gray[800]};
  }
  .count { font-weight: 400; color: ${({ theme }) => theme.gray[500]}; font-size: 12px; margin-left: 6px; }
`;

const StyledChildren = styled.div<{ $off: boolean }>`
  margin: 0 0 4px 18px;
  padding-left: 12px;
  border-left: 2px solid ${({ theme, $off }) => ($off ? theme.gray[200] : theme.primary[200])};
  opacity: ${({ $off }) => ($off ? 0.7 : 1)};
`;

type FlagTree = { flag: FlagName; children: FlagName[] };

// FLAG_INFO lists the flags in reading order (a section, then its documents in their flow).
const DISPLAY_ORDER = Object.keys(FLAG_INFO) as FlagName[];

/** Each group's flags, the document flags under their section flag. */
function groupTree(group: FlagGroup): FlagTree[] {
  const inGroup = DISPLAY_ORDER.filter((f) => FLAG_INFO[f].group === group);
  const topLevel = inGroup.filter((f) => !FLAG_INFO[f].parent || FLAG_INFO[FLAG_INFO[f].parent!].group !== group);
  return topLevel.map((flag) => ({ flag, children: inGroup.filter((c) => FLAG_INFO[c].parent === flag) }));
}

const TREES = FLAG_GROUPS.map((group) => ({ group, trees: groupTree(group) }));

export type FlagSwitchesProps = {
  /** The form's values, keyed by the configuration field (`conf_…`). */
  values: Record<string, unknown>;
  onChange: (field: string, value: 0 | 1) => void;
  disabled?: boolean;
};

/**
 * The 26 module flags as switches grouped like FLAG_GROUPS. A document flag whose section is off is
 * shown disabled, but keeps (and sends) its value: switching the section on again restores it.
 */
export function FlagSwitches({ values, onChange, disabled }: FlagSwitchesProps) {
  const isOn = (f: FlagName) => values[CONF_FIELD[f]] === 1;
  const switchFor = (f: FlagName, parentOff = false) => {
    const info = FLAG_INFO[f];
    const hint = parentOff ? `Requiere activar «${FLAG_INFO[info.parent!].label}»` : info.hint;
    return (
      <SwitchField
        key={f}
        name={CONF_FIELD[f]}
        label={info.label}
        hint={hint}
        checked={isOn(f)}
        disabled={disabled || parentOff}
        onChange={(on) => onChange(CONF_FIELD[f], on ? 1 : 0)}
      />
    );
  };
  return (
    <StyledGroups>
      {TREES.map(({ group, trees }) => {
        const all = trees.flatMap((t) => [t.flag, ...t.children]);
        return (
          <StyledGroup key={group}>
            <legend>
              {group}{' '}
              <span className="count">
                {all.filter(isOn).length} de {all.length}
              </span>
            </legend>
            {trees.map(({ flag, children }) => (
              <div key={flag}>
                {switchFor(flag)}
                {children.length > 0 && (
                  <StyledChildren $off={!isOn(flag)} role="group" aria-label={`Opciones de ${FLAG_INFO[flag].label}`}>
                    {children.map((c) => switchFor(c, !isOn(flag)))}
                  </StyledChildren>
                )}
              </div>
            ))}
          </StyledGroup>
        );
      })}
    </StyledGroups>
  );
}
