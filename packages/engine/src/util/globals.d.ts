// The engine runs on any JavaScript runtime: it uses only these web-standard
// globals, declared here so that no platform's type library is pulled in.

declare class URL {
  constructor(input: string, base?: string);
  readonly hostname: string;
  readonly host: string;
  readonly protocol: string;
}
