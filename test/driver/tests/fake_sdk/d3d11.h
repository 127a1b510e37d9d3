/* stand-in for the Windows SDK header, so cl_d3d11.h parses on Linux */
#pragma once
typedef struct ID3D11Buffer ID3D11Buffer;
typedef struct ID3D11Texture2D ID3D11Texture2D;
typedef struct ID3D11Texture3D ID3D11Texture3D;
typedef unsigned int UINT;
