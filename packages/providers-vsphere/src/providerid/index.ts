export { swapVsphereUUIDByteOrder, vsphereProviderID, vsphereUUIDFromProviderID } from './vsphere.js';
