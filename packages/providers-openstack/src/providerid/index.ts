export { openstackProviderID } from './openstack.js';
