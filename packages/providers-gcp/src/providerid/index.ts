export { gceProviderID, gceProviderIDFromResourceURL } from './gce.js';
