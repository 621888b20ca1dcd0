import { remoteConfig } from 'shared/build/federation.mjs';

export default remoteConfig({ dir: import.meta.dirname, name: 'mf_almacenes', devPort: 3104 });
