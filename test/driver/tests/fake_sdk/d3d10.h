/* stand-in for the Windows SDK header, so cl_d3d10.h parses on Linux */
#pragma once
typedef struct ID3D10Buffer ID3D10Buffer;
typedef struct ID3D10Texture2D ID3D10Texture2D;
typedef struct ID3D10Texture3D ID3D10Texture3D;
typedef unsigned int UINT;
typedef unsigned int DXGI_FORMAT;
