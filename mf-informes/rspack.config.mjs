import { remoteConfig } from 'shared/build/federation.mjs';

export default remoteConfig({ dir: import.meta.dirname, name: 'mf_informes', devPort: 3105 });
