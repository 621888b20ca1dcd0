import { configure } from '@testing-library/react';

// Screens load their tables, editors and PDFs lazily: on a loaded CI machine the first find* may need more than 1 s.
configure({ asyncUtilTimeout: 4000 });
