// Types for the `zipcodes` package (it ships none).
declare module 'zipcodes' {
  export interface ZipInfo {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string | number): ZipInfo | undefined;
  export function lookupByName(city: string, state: string): ZipInfo[];
  export function lookupByState(state: string): ZipInfo[];
  export function distance(zipA: string | number, zipB: string | number): number | null;
  export function radius(zip: string | number, miles: number, full?: false): string[];
  export function radius(zip: string | number, miles: number, full: true): ZipInfo[];
  export function toMiles(km: number): number;
  export function toKilometers(miles: number): number;
  const zipcodes: {
    lookup: typeof lookup;
    lookupByName: typeof lookupByName;
    lookupByState: typeof lookupByState;
    distance: typeof distance;
    radius: typeof radius;
    toMiles: typeof toMiles;
    toKilometers: typeof toKilometers;
  };
  export default zipcodes;
}
