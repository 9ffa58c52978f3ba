/**
 * The few Express request/response members the API uses (the project has no @types/express).
 */
export interface HttpRequest {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined> & { origin?: string };
}

export interface HttpResponse {
  headersSent: boolean;
  status(code: number): HttpResponse;
  type(contentType: string): HttpResponse;
  json(body: unknown): HttpResponse;
  send(body: string): HttpResponse;
  setHeader(name: string, value: string): void;
  redirect(status: number, url: string): void;
  end(): void;
}

export type NextFn = (err?: unknown) => void;
