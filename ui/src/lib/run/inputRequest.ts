// What an `input_requested` event asks and what an answer is: the types are generated from the
// Rust protocol (crates/runs/src/input.rs), so the form reads the request as the engine recorded
// it and builds the answer the engine validates.
export type { InputRequest } from '../api/types/InputRequest';
export type { FormRequest } from '../api/types/FormRequest';
export type { ConfirmRequest } from '../api/types/ConfirmRequest';
export type { ConfirmOptions } from '../api/types/ConfirmOptions';
export type { Requirement } from '../api/types/Requirement';
export type { FieldType } from '../api/types/FieldType';
export type { InputAnswer } from '../api/types/InputAnswer';
