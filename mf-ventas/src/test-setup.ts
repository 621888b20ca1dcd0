import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearListStates } from 'shared';

// No vitest globals: Testing Library can't register its own cleanup. Lists remember their page between screens.
afterEach(() => {
  cleanup();
  clearListStates();
});
