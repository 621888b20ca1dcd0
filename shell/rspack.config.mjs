import { shellConfig } from 'shared/build/federation.mjs';

export default shellConfig({ dir: import.meta.dirname, devPort: 8080 });
