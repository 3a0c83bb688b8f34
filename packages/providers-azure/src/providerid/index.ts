export { azureLowerResourceGroup, azureProviderID, azureProviderIDFromResourceID } from './azure.js';
