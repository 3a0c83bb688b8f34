export { awsProviderID } from './aws.js';
