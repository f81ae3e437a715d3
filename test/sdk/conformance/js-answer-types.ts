// Whether what a JS SDK method returned is of the type the SDK declares for it:
// the method's return type (Promise unwrapped) read from the SDK's own
// declarations with the TypeScript compiler, and a value walked against it.
// The JS SDK passes most answers through as the API sent them, so this is the
// JS side of "every answer validates in the SDK's own models".
import ts from 'typescript';
import { declarationsProgram, jsDeclarationsFile } from '../js-declarations.ts';

export interface AnswerTypes {
  /** What is wrong with `value` as the answer of `Client.method`; empty when it is of the declared type. */
  problems(clientMethod: string, value: unknown): string[];
}

const MAX_ITEMS = 50;

/**
 * Fields our answers carry beyond the SDK's declared type, each with why: keyed
 * by the SDK type's name and the field ("ExtractResponse.tokensUsed").
 */
export type ExtraFields = Record<string, string>;

export interface AnswerTypeExceptions {
  extraFields?: ExtraFields;
  /** Methods whose declared type is not what the SDK returns (it passes the body through), each with why: not checked here. */
  misdeclared?: Record<string, string>;
}

export function jsAnswerTypes({ extraFields = {}, misdeclared = {} }: AnswerTypeExceptions = {}, file = jsDeclarationsFile()): AnswerTypes {
  const program = declarationsProgram(file);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const classes = new Map<string, ts.ClassDeclaration>();
  ts.forEachChild(source, (node) => {
    if (ts.isClassDeclaration(node) && node.name) classes.set(node.name.text, node);
  });

  /** The answer types of every overload of the method (Promise unwrapped). */
  const returnTypes = (clientMethod: string): ts.Type[] => {
    const [client, method] = clientMethod.split('.');
    const decls =
      classes.get(client)?.members.filter((m) => (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m)) && m.name.getText() === method) ?? [];
    if (decls.length === 0) throw new Error(`no method ${clientMethod} in the SDK's declarations`);
    return decls.map((decl) => {
      const type = checker.getReturnTypeOfSignature(checker.getSignatureFromDeclaration(decl as ts.SignatureDeclaration)!);
      return type.getSymbol()?.name === 'Promise' ? checker.getTypeArguments(type as ts.TypeReference)[0] : type;
    });
  };

  // A generic left open by the declaration (a method's type parameter, a conditional on it) says nothing to check.
  const OPEN =
    ts.TypeFlags.Any |
    ts.TypeFlags.Unknown |
    ts.TypeFlags.TypeParameter |
    ts.TypeFlags.Conditional |
    ts.TypeFlags.Substitution |
    ts.TypeFlags.Index |
    ts.TypeFlags.IndexedAccess;

  const label = (type: ts.Type) => checker.typeToString(type).slice(0, 80);

  const check = (type: ts.Type, value: unknown, path: string, depth: number): string[] => {
    if (depth > 30) return [];
    const flags = type.flags;
    if (flags & OPEN) return [];
    if (type.isUnion()) {
      const attempts = type.types.map((member) => check(member, value, path, depth + 1));
      if (attempts.some((p) => p.length === 0)) return [];
      // Report against the members the value could have meant: an array's problems, not "is not undefined".
      const absent = ts.TypeFlags.Undefined | ts.TypeFlags.Null;
      const meant = value === undefined || value === null ? attempts : attempts.filter((_, i) => !(type.types[i].flags & absent));
      return (meant.length > 0 ? meant : attempts).reduce((best, p) => (p.length < best.length ? p : best));
    }
    // string & {} (an open set of names that keeps the listed ones in completions): every part must hold.
    if (type.isIntersection()) return type.types.flatMap((part) => check(part, value, path, depth + 1));
    if (flags & ts.TypeFlags.Undefined) return value === undefined ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 60)} where the SDK has undefined`];
    if (flags & ts.TypeFlags.Null) return value === null ? [] : [`${path}: not null`];
    if (type.isStringLiteral()) return value === type.value ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not "${type.value}"`];
    if (type.isNumberLiteral()) return value === type.value ? [] : [`${path}: ${JSON.stringify(value)} is not ${type.value}`];
    if (flags & ts.TypeFlags.BooleanLiteral) return value === (label(type) === 'true') ? [] : [`${path}: ${JSON.stringify(value)} is not ${label(type)}`];
    if (flags & ts.TypeFlags.StringLike) return typeof value === 'string' ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not a string`];
    if (flags & ts.TypeFlags.NumberLike) return typeof value === 'number' ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not a number`];
    if (flags & ts.TypeFlags.BooleanLike) return typeof value === 'boolean' ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not a boolean`];
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      if (!Array.isArray(value)) return [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not an array (${label(type)})`];
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      if (checker.isTupleType(type)) {
        const elements = checker.getTypeArguments(type as ts.TypeReference);
        if (value.length !== elements.length) return [`${path}: ${value.length} items where the SDK's tuple has ${elements.length}`];
        return elements.flatMap((t, i) => check(t, value[i], `${path}[${i}]`, depth + 1));
      }
      return value.slice(0, MAX_ITEMS).flatMap((item, i) => check(element, item, `${path}[${i}]`, depth + 1));
    }
    if (flags & ts.TypeFlags.Object) {
      if (type.getCallSignatures().length > 0) return [];
      const name = type.getSymbol()?.name;
      // Instances the SDK builds itself (a Watcher, a Date) are not answers of the API.
      if (name === 'Date' || name === 'Watcher' || name === 'EventEmitter') return [];
      // {}: anything but null and undefined.
      if (checker.getPropertiesOfType(type).length === 0 && !type.getStringIndexType())
        return value === null || value === undefined ? [`${path}: ${value}`] : [];
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not an object (${label(type)})`];
      const record = value as Record<string, unknown>;
      const problems: string[] = [];
      const declared = new Set<string>();
      for (const property of checker.getPropertiesOfType(type)) {
        declared.add(property.name);
        const decl = property.valueDeclaration ?? property.declarations?.[0];
        const propertyType = decl ? checker.getTypeOfSymbolAtLocation(property, decl) : checker.getTypeOfSymbol(property);
        // A field typed never is one the SDK says is not there (a generic's default), and one typed by an
        // open generic (ActionsSchema extends Action[] ? … : never) depends on the call: absent is right for both.
        const optional = (property.flags & ts.SymbolFlags.Optional) !== 0 || (propertyType.flags & (ts.TypeFlags.Never | OPEN)) !== 0;
        if (!(property.name in record)) {
          if (!optional) problems.push(`${path}.${property.name}: missing (the SDK's ${label(type)} requires it)`);
          continue;
        }
        // JSON has no undefined: the contract writes an absent optional value as null ("stdout (string or
        // null)"), and the SDK reads its optional fields with ?. and ??, which take null the same way.
        if (optional && record[property.name] === null) continue;
        problems.push(...check(propertyType, record[property.name], `${path}.${property.name}`, depth + 1));
      }
      const index = type.getStringIndexType();
      for (const key of Object.keys(record)) {
        if (declared.has(key)) continue;
        if (index) problems.push(...check(index, record[key], `${path}.${key}`, depth + 1));
        else if (!(`${name?.replace(/\$\d+$/, '')}.${key}` in extraFields)) problems.push(`${path}.${key}: not a field of the SDK's ${label(type)}`);
      }
      return problems;
    }
    return [];
  };

  return {
    problems(clientMethod, value) {
      if (clientMethod in misdeclared) return [];
      const attempts = returnTypes(clientMethod).map((type) => check(type, value, clientMethod, 0));
      return attempts.some((p) => p.length === 0) ? [] : attempts.reduce((best, p) => (p.length < best.length ? p : best));
    },
  };
}
