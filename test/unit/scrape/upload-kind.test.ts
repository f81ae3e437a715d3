// What an upload is read as (page/upload/upload-kind.ts), and the zip bomb check a
// DOCX passes before it is unpacked (page/upload/zip-entries.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { uploadKind } from '../../../src/page/upload/upload-kind.ts';
import { checkUnpackedSize, ZipError } from '../../../src/page/upload/zip-entries.ts';
import { docxFile, zipFile } from '../../support/zip-file.ts';

const PDF = readFileSync('test/fixtures/pdf/report.pdf');
const DOCX = docxFile(['Title', 'Body']);

describe('uploadKind', () => {
  it('trusts unambiguous bytes over the name and type', () => {
    expect(uploadKind(PDF, 'text/plain', 'notes.txt')).toBe('pdf');
    expect(uploadKind(DOCX, undefined, 'upload')).toBe('docx');
    expect(uploadKind(readFileSync('test/fixtures/pdf/scan.png'), 'text/plain', 'notes.txt')).toBe('image');
    expect(uploadKind(Buffer.from('II*\0rest'), undefined, 'upload')).toBe('image');
  });

  it('then the declared type (parameters and case aside), then the extension', () => {
    expect(uploadKind(Buffer.from('x'), 'Text/Markdown; charset=utf-8', 'a.txt')).toBe('markdown');
    expect(uploadKind(Buffer.from('x'), 'application/octet-stream', 'A.HTM')).toBe('html');
    expect(uploadKind(Buffer.from('x'), undefined, 'notes.txt')).toBe('text');
    // A file that says it is a PDF but is not one goes to the PDF reader, which says what is wrong.
    expect(uploadKind(Buffer.from('junk'), 'application/pdf', 'a.bin')).toBe('pdf');
    // So does an image: OCR says what is wrong with it.
    expect(uploadKind(Buffer.from([0x89, 0x50]), 'image/png', 'a.png')).toBe('image');
    expect(uploadKind(Buffer.from('x'), undefined, 'scan.TIFF')).toBe('image');
  });

  it('sniffs HTML only when nothing else says what the file is', () => {
    expect(uploadKind(Buffer.from('\uFEFF  <!-- c --><!DOCTYPE html><p>x'), undefined, 'upload')).toBe('html');
    expect(uploadKind(Buffer.from('<p>just a fragment</p>'), undefined, 'upload')).toBeUndefined();
  });

  it('refuses other zips, other types, and names that only Object.prototype knows', () => {
    expect(uploadKind(zipFile([{ name: 'xl/workbook.xml', data: '<w/>' }]), undefined, 'book.xlsx')).toBeUndefined();
    expect(uploadKind(zipFile([{ name: 'a.txt', data: 'a' }]), undefined, 'broken.docx')).toBe('docx');
    expect(uploadKind(Buffer.from('x'), 'image/svg+xml', 'a.svg')).toBeUndefined();
    expect(uploadKind(Buffer.from('x'), 'constructor', 'a.constructor')).toBeUndefined();
    expect(uploadKind(Buffer.from('x'), '__proto__', 'a.__proto__')).toBeUndefined();
  });
});

describe('checkUnpackedSize', () => {
  const budget = 100_000;

  it('passes a zip within the budget, stored or deflated', () => {
    expect(() => checkUnpackedSize(docxFile(['a'], { padding: budget / 2 }), budget, 'X')).not.toThrow();
    expect(() => checkUnpackedSize(docxFile(['a'], { padding: budget / 2, deflate: true }), budget, 'X')).not.toThrow();
  });

  it('refuses entries that together inflate past it, naming the setting', () => {
    const bomb = docxFile(['a'], { padding: budget * 3, deflate: true });
    expect(bomb.length).toBeLessThan(budget / 10);
    expect(() => checkUnpackedSize(bomb, budget, 'PARSE_MAX_UNPACKED_BYTES')).toThrow(/more than 100000 bytes \(PARSE_MAX_UNPACKED_BYTES\)/);
  });

  it('measures what the entries inflate to, not the sizes the directory claims', () => {
    const bomb = zipFile([{ name: 'word/document.xml', data: ' '.repeat(budget * 3), deflate: true }]);
    // The central directory's uncompressed size of the one entry: 22 bytes before the end record, offset 24.
    const central = bomb.length - 22 - (46 + 'word/document.xml'.length);
    bomb.writeUInt32LE(10, central + 24);
    expect(() => checkUnpackedSize(bomb, budget, 'X')).toThrow(ZipError);
  });

  it('calls a damaged archive damaged', () => {
    expect(() => checkUnpackedSize(Buffer.from('PK\u0003\u0004 cut short'), budget, 'X')).toThrow(/not a complete zip archive/);
    const cut = DOCX.subarray(0, DOCX.length - 30);
    expect(() => checkUnpackedSize(cut, budget, 'X')).toThrow(ZipError);
  });
});
