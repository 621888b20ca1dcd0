import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Screens load their PDFs lazily: on a loaded CI machine the first find* may need more than 1 s.
configure({ asyncUtilTimeout: 4000 });

// No vitest globals: Testing Library can't register its own cleanup.
afterEach(() => {
  cleanup();
});
