import { type Either, left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  invalidField,
  malformed,
  type ProviderIDError,
  type ProviderIDFields,
  providerIDError,
  quoteInput,
  readAfterScheme,
  readField,
  tokenFaultMessage,
} from '../kit.js';

const CLOUD = 'azure';
const SCHEME = 'azure';

const DIGITS = /^[0-9]+$/;
// The fields every VM's resource ID starts with, and that start as `format` writes it
// (the resource group lower-cased, as the cloud provider writes it).
const GROUP = ['subscriptionId', 'resourceGroup'] as const;
const computePrefix = (v: Readonly<Record<(typeof GROUP)[number], string>>) =>
  `azure:///subscriptions/${v.subscriptionId}/resourceGroups/${v.resourceGroup.toLowerCase()}/providers/Microsoft.Compute`;

/**
 * The '/'-separated segments of a resource path, read in place: where the first twelve
 * start and end, and how many there are. Reading a path this way allocates nothing per
 * keyword (a resource ID is mostly keywords); only the names are sliced out. Segment
 * indexes past `count` read as absent. One scratch instance: readers never nest.
 */
const segments = {
  path: '',
  count: 0,
  bounds: new Int32Array(13),
  read(path: string): void {
    this.path = path;
    this.bounds[0] = -1;
    let count = 1;
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) {
      if (count < 12) this.bounds[count] = at;
      count++;
    }
    this.count = count;
    if (count <= 12) this.bounds[count] = path.length;
  },
  /** Segment `i` as a string ('' when absent, as `split('/')[i] ?? ''`). */
  text(i: number): string {
    return i < this.count ? this.path.slice(this.bounds[i]! + 1, this.bounds[i + 1]) : '';
  },
  /**
   * Whether segment `i` exists and equals `lower` (an ASCII keyword, lower-case, without
   * 'k') in any case: what `s.toLowerCase() === lower` answers, as no character outside
   * ASCII lower-cases to an ASCII letter but 'k' (U+212A, the Kelvin sign).
   */
  is(i: number, lower: string): boolean {
    if (i >= this.count) return false;
    const start = this.bounds[i]! + 1;
    if (this.bounds[i + 1]! - start !== lower.length) return false;
    for (let j = 0; j < lower.length; j++) {
      let c = this.path.charCodeAt(start + j);
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (c !== lower.charCodeAt(j)) return false;
    }
    return true;
  },
};

/** The error for a name of the path that cannot be a field (see tokenFault), if it cannot. */
function badName(field: string, label: string, name: string): FieldsResult | undefined {
  const fault = tokenFaultMessage(label, name);
  return fault === undefined ? undefined : invalidField(CLOUD, field, fault);
}

/**
 * Reads an ARM resource path `/subscriptions/<sub>/resourceGroups/<rg>/providers/
 * Microsoft.Compute/virtualMachines/<vm>` or `…/virtualMachineScaleSets/<vmss>/
 * virtualMachines/<instance>`. Keywords in any case; names as written.
 */
function readResourcePath(path: string, scheme: string): FieldsResult {
  const s = segments;
  s.read(path);
  if (!s.is(0, '') || !s.is(1, 'subscriptions')) {
    return malformed(CLOUD, 'expected an ARM resource ID starting with /subscriptions/');
  }
  if (!s.is(3, 'resourcegroups') || !s.is(5, 'providers') || !s.is(6, 'microsoft.compute')) {
    return malformed(
      CLOUD,
      'expected /subscriptions/<id>/resourceGroups/<name>/providers/Microsoft.Compute/…',
    );
  }
  const subscriptionId = s.text(2);
  const resourceGroup = s.text(4);
  const bad =
    badName('subscriptionId', 'the subscription ID', subscriptionId) ??
    badName('resourceGroup', 'the resource group', resourceGroup);
  if (bad) return bad;
  const base = { scheme, subscriptionId, resourceGroup };
  if (s.count === 9 && s.is(7, 'virtualmachines')) {
    const vmName = s.text(8);
    const badVM = badName('vmName', 'the VM name', vmName);
    if (badVM) return badVM;
    return right({ ...base, resourceType: 'virtualMachines', vmName, variant: 'vm' });
  }
  if (s.count === 11 && s.is(7, 'virtualmachinescalesets') && s.is(9, 'virtualmachines')) {
    const vmssName = s.text(8);
    const vmssInstanceId = s.text(10);
    const badVMSS =
      badName('vmssName', 'the scale set name', vmssName) ??
      badName('vmssInstanceId', 'the scale set instance ID', vmssInstanceId);
    if (badVMSS) return badVMSS;
    // Uniform instances are numbered; a flexible-orchestration VM appears under its
    // scale set by VM name (`<vmss>_<hash>`).
    const uniform = DIGITS.test(vmssInstanceId);
    const aks = resourceGroup.toLowerCase().startsWith('mc_') && vmssName.toLowerCase().startsWith('aks-');
    return right({
      ...base,
      resourceType: 'virtualMachineScaleSets',
      vmssName,
      vmssInstanceId,
      variant: uniform ? 'vmss-uniform' : 'vmss-flex',
      ...(aks ? { aks: true } : {}),
    });
  }
  return malformed(
    CLOUD,
    'expected …/Microsoft.Compute/virtualMachines/<vm> or …/virtualMachineScaleSets/<vmss>/virtualMachines/<instance>',
  );
}

/**
 * Azure: `azure://` + ARM resource ID of a VM (standalone, availability set, or VMSS Flex
 * member: indistinguishable in the string) or of a uniform VMSS instance (AKS nodes are
 * those). A bare `/subscriptions/…` path is claimed. Identity: the whole path
 * lower-cased, because ARM names are case-insensitive and emitters disagree on the case of
 * resource groups; a Flex member written under its scale set is the same VM as its
 * `virtualMachines/<name>` form.
 */
export const azureProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Microsoft Azure (VM, availability set, VMSS uniform and flex, AKS)',
  schemes: [SCHEME],
  claimsBare: (input) => input.startsWith('/subscriptions/'),
  parse: (id) => readAfterScheme(CLOUD, id, [SCHEME], readResourcePath, id.rest.startsWith('/')),
  format(fields) {
    if (readField(fields, 'vmssName') !== undefined || readField(fields, 'vmssInstanceId') !== undefined) {
      return formatFields(CLOUD, fields, [...GROUP, 'vmssName', 'vmssInstanceId'], (v) => {
        return `${computePrefix(v)}/virtualMachineScaleSets/${v.vmssName}/virtualMachines/${v.vmssInstanceId}`;
      });
    }
    return formatFields(
      CLOUD,
      fields,
      [...GROUP, 'vmName'],
      (v) => `${computePrefix(v)}/virtualMachines/${v.vmName}`,
    );
  },
  identity(fields: ProviderIDFields) {
    const sub = String(fields.subscriptionId).toLowerCase();
    const rg = String(fields.resourceGroup).toLowerCase();
    if (fields.variant === 'vmss-uniform') {
      return {
        space: CLOUD,
        parts: [sub, rg, 'vmss', String(fields.vmssName).toLowerCase(), String(fields.vmssInstanceId)],
      };
    }
    const vm = fields.variant === 'vmss-flex' ? fields.vmssInstanceId : fields.vmName;
    return { space: CLOUD, parts: [sub, rg, 'vm', String(vm).toLowerCase()] };
  },
};

// Finds the resource group value in `…/subscriptions/<x>/resourceGroups/<rg>/providers/…`.
function findResourceGroup(id: string): { start: number; end: number } | undefined {
  const lower = id.toLowerCase();
  const subs = lower.indexOf('/subscriptions/');
  if (subs < 0) return undefined;
  const rgKey = lower.indexOf('/resourcegroups/', subs);
  if (rgKey < 0) return undefined;
  const start = rgKey + '/resourcegroups/'.length;
  const end = lower.indexOf('/providers/', start);
  if (end <= start) return undefined;
  return { start, end };
}

/**
 * Lower-cases the resource group of an Azure providerID or ARM ID, leaving everything
 * else as written: what cloud-provider-azure and CAPZ do before writing an ID. Fails when
 * the string has no `/subscriptions/…/resourceGroups/<rg>/providers/` part.
 */
export function azureLowerResourceGroup(id: string): Either<ProviderIDError, string> {
  const at = findResourceGroup(id);
  if (!at) {
    const message = `${quoteInput(id)} has no /subscriptions/…/resourceGroups/<name>/providers/ part`;
    return left(providerIDError('malformed', message, { cloud: CLOUD }));
  }
  return right(id.slice(0, at.start) + id.slice(at.start, at.end).toLowerCase() + id.slice(at.end));
}

/** The providerID of an ARM resource ID: `azure://` + the ID with its resource group lower-cased. */
export function azureProviderIDFromResourceID(resourceID: string): Either<ProviderIDError, string> {
  const lowered = azureLowerResourceGroup(resourceID);
  if (lowered._tag === 'Left') return lowered;
  return right(lowered.right.startsWith('azure://') ? lowered.right : `azure://${lowered.right}`);
}
