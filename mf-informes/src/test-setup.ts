import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearListStates } from 'shared';

// Screens load their tables, editors and PDFs lazily: on a loaded CI machine the first find* may need more than 1 s.
configure({ asyncUtilTimeout: 4000 });

// No vitest globals: Testing Library can't register its own cleanup. Lists remember their page between screens.
afterEach(() => {
  cleanup();
  clearListStates();
});

// Reports remember their filters per user in localStorage: each test starts without any.
afterEach(() => localStorage.clear());
