import { remoteConfig } from 'shared/build/federation.mjs';

export default remoteConfig({ dir: import.meta.dirname, name: 'mf_tpv', devPort: 3107 });
