/**
 * One till per browser, whatever the tabs. Every tab of this browser shares the till's IndexedDB: the ticket being
 * sold (`estado.ticket`, with the uuid it will be paid with) and the queue. Two tabs selling at once would charge
 * the same ticket twice, or one tab's lines under the other's paid uuid. So only the tab that holds the Web Lock
 * `manager-tpv-caja` sells; another tab is told so and may take the till over (the lock is stolen: the first tab
 * stops selling at once and says so).
 */
export const CERROJO = 'manager-tpv-caja';

type Cerrojos = {
  request(name: string, options: { ifAvailable?: boolean; steal?: boolean }, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>;
};

const cerrojos = (): Cerrojos | null => (typeof navigator !== 'undefined' && (navigator as Navigator & { locks?: Cerrojos }).locks) || null;

let soltar: (() => void) | null = null;

/**
 * Takes the till for this tab: `robar` takes it from the tab that has it. Answers whether this tab sells now;
 * `alPerder` is called if another tab takes it later. Without the Web Locks API (an old browser) every tab sells,
 * as before.
 */
export function tomarCaja(robar: boolean, alPerder: () => void): Promise<boolean> {
  const locks = cerrojos();
  if (!locks) return Promise.resolve(true);
  soltar?.();
  soltar = null;
  return new Promise<boolean>((resolve) => {
    locks
      .request(CERROJO, robar ? { steal: true } : { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(false);
          return;
        }
        resolve(true);
        // Held while the tab lives (or until it lets go).
        return new Promise<void>((fin) => {
          soltar = fin;
        });
      })
      .catch((e: unknown) => {
        // Stolen by another tab: its request aborts ours.
        if ((e as { name?: string })?.name === 'AbortError') {
          soltar = null;
          alPerder();
        } else resolve(true);
      });
  });
}

/** Lets the till go (tests; a tab that leaves the till). */
export function soltarCaja() {
  soltar?.();
  soltar = null;
}
