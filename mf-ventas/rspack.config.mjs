import { remoteConfig } from 'shared/build/federation.mjs';

export default remoteConfig({ dir: import.meta.dirname, name: 'mf_ventas', devPort: 3103 });
