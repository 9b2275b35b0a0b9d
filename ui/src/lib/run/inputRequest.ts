// What an `input_requested` event asks. The generated `Event` types its `request` as `JsonValue`:
// it is the object a block hands to the engine (docs/events.md, "input requests and answers";
// crates/blocks/src/answers.rs), written by the block specs, not by a Rust API type. So this model
// is the UI's own, and `readInputRequest` reads it tolerantly — that variation is real (plans
// write requirements by hand), unlike the API's own answers, which the generated types fix.
import type { JsonValue } from '../api/types/serde_json/JsonValue';

export type RequirementType = 'text' | 'select' | 'boolean' | 'number' | 'file' | 'table' | 'enum' | 'date' | (string & {});

export interface Requirement {
  id: string;
  type: RequirementType;
  label?: string | null;
  description?: string | null;
  options?: string[] | null;
  required?: boolean | null;
  accept?: string | null;
  hint?: string | null;
  validation?: { regex?: string | null } | null;
}

export interface FormRequest {
  mode: 'collect' | 'mixed' | 'inquire';
  message: string;
  requirements: Requirement[];
  context?: JsonValue;
}

export interface ConfirmOptions {
  approve_label?: string;
  reject_label?: string;
  comment_required?: boolean;
  /** The choice offered first (the primary button); `reject` where approving is the risky one. */
  default?: 'approve' | 'reject';
}

export interface ConfirmRequest {
  mode: 'confirm';
  message: string;
  options: ConfirmOptions;
  context?: JsonValue;
}

export type InputRequest = FormRequest | ConfirmRequest;

type JsonObject = { [key in string]: JsonValue };

function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

const str = (v: JsonValue | undefined): string | null => (typeof v === 'string' ? v : null);

function readRequirement(v: JsonValue): Requirement | null {
  if (!isObject(v) || typeof v.id !== 'string') return null;
  const validation = isObject(v.validation) ? { regex: str(v.validation.regex) } : null;
  return {
    id: v.id,
    type: str(v.type) ?? 'text',
    label: str(v.label),
    description: str(v.description),
    options: Array.isArray(v.options) ? v.options.map((o) => (typeof o === 'string' ? o : JSON.stringify(o))) : null,
    required: typeof v.required === 'boolean' ? v.required : null,
    accept: str(v.accept),
    hint: str(v.hint),
    validation,
  };
}

/**
 * The request of an `input_requested` event as the form shows it. Something that is not a known
 * request still gets a form — a free-text answer to its message — so a run never waits unseen.
 */
export function readInputRequest(raw: JsonValue): InputRequest {
  const o: JsonObject = isObject(raw) ? raw : {};
  const message = str(o.message) ?? (isObject(raw) ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw));
  const context = o.context;
  if (o.mode === 'confirm') {
    const opts = isObject(o.options) ? o.options : {};
    const options: ConfirmOptions = {};
    if (typeof opts.approve_label === 'string') options.approve_label = opts.approve_label;
    if (typeof opts.reject_label === 'string') options.reject_label = opts.reject_label;
    if (typeof opts.comment_required === 'boolean') options.comment_required = opts.comment_required;
    if (opts.default === 'approve' || opts.default === 'reject') options.default = opts.default;
    return { mode: 'confirm', message, options, context };
  }
  const mode = o.mode === 'collect' || o.mode === 'mixed' ? o.mode : 'inquire';
  const requirements = Array.isArray(o.requirements)
    ? o.requirements.map(readRequirement).filter((r): r is Requirement => r !== null)
    : [];
  return { mode, message, requirements, context };
}
