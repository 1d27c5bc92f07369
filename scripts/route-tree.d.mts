export declare const routeTreeOptions: {
  target: 'react';
  routesDirectory: string;
  generatedRouteTree: string;
  quoteStyle: 'double';
};
