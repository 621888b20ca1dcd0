import { MESSAGES } from 'shared/domain';
import type { ApiResponse, FieldErrors, ResultCode } from 'shared/domain';

/**
 * A refusal the user can read, with the HTTP status and the op.asp answer it becomes. The lowest
 * module of the server: the domain (documentos/, fiscal/) throws these and the transport (actions/)
 * answers them, so the domain never imports the transport.
 */
export class ActionError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiResponse,
  ) {
    super(body.message ?? 'action error');
  }
}

/** A failure answered `RESULT` (1 by default) with its Spanish message. */
export const fail = (message: string, result: ResultCode = '1', status = 200) =>
  new ActionError(status, { RESULT: result, message });

/** 400 with the fields' Spanish messages. */
export const invalidFields = (errors: FieldErrors) =>
  new ActionError(400, { RESULT: '1', message: MESSAGES.invalidFields, errors });
